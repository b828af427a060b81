//! A plain RGB image and its PNG encoding.

use crate::ExportError;
use crate::common::write_file;
use std::path::Path;

/// An 8-bit sRGB image, rows top to bottom, 3 bytes per pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 3` bytes, row-major, no padding.
    pub rgb: Vec<u8>,
}

impl Image {
    /// An image filled with one colour.
    pub fn new(width: u32, height: u32, fill: [u8; 3]) -> Self {
        let n = width as usize * height as usize;
        let mut rgb = Vec::with_capacity(3 * n);
        for _ in 0..n {
            rgb.extend_from_slice(&fill);
        }
        Self { width, height, rgb }
    }

    /// The colour at `(x, y)`, `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = 3 * (y as usize * self.width as usize + x as usize);
        self.rgb.get(i..i + 3).map(|p| [p[0], p[1], p[2]])
    }

    pub(crate) fn check(&self) -> Result<(), ExportError> {
        // In u64 and checked: the fields are public, so the size may be anything.
        let expected = (u64::from(self.width) * u64::from(self.height))
            .checked_mul(3)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(usize::MAX);
        if self.rgb.len() != expected {
            return Err(ExportError::LengthMismatch {
                what: "rgb",
                expected,
                got: self.rgb.len(),
            });
        }
        if self.width == 0 || self.height == 0 {
            return Err(ExportError::InvalidOption {
                name: "width/height",
                reason: "a PNG needs at least one pixel",
            });
        }
        Ok(())
    }

    /// Encodes the image as PNG (8-bit RGB, sRGB chunk set so viewers do not re-gamma it).
    ///
    /// ```
    /// let img = export::Image::new(4, 2, [10, 20, 30]);
    /// let png = img.to_png_bytes().unwrap();
    /// assert_eq!(&png[1..4], b"PNG");
    /// ```
    pub fn to_png_bytes(&self) -> Result<Vec<u8>, ExportError> {
        self.check()?;
        let mut out = Vec::new();
        self.encode(&mut out)?;
        Ok(out)
    }

    /// Writes the image as a PNG file (via a temporary sibling and a rename).
    pub fn save_png(&self, path: impl AsRef<Path>) -> Result<(), ExportError> {
        self.check()?;
        write_file(path.as_ref(), |w| self.encode(w))
    }

    fn encode<W: std::io::Write>(&self, w: W) -> Result<(), ExportError> {
        encode_png(
            w,
            self.width,
            self.height,
            png::ColorType::Rgb,
            png::BitDepth::Eight,
            &self.rgb,
        )
    }
}

/// Maps the `png` crate's errors: I/O stays I/O (the path is added by the caller).
pub(crate) fn png_err(e: png::EncodingError) -> ExportError {
    match e {
        png::EncodingError::IoError(e) => ExportError::Writer(e),
        other => ExportError::Png(other.to_string()),
    }
}

/// Encodes one still PNG. Colour images are tagged sRGB so that viewers do not re-gamma them;
/// fast compression, since the pictures and heightmaps are large and written often.
pub(crate) fn encode_png<W: std::io::Write>(
    w: W,
    width: u32,
    height: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    data: &[u8],
) -> Result<(), ExportError> {
    let mut enc = png::Encoder::new(w, width, height);
    enc.set_color(color);
    enc.set_depth(depth);
    if color == png::ColorType::Rgb {
        enc.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    }
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().map_err(png_err)?;
    writer.write_image_data(data).map_err(png_err)?;
    writer.finish().map_err(png_err)
}
