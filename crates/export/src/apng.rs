//! Animated PNG: one frame per simulation step, looping, readable by every web browser and
//! most image viewers (those that do not animate show the first frame).

use crate::common::write_file;
use crate::image::png_err;
use crate::{ExportError, Image};
use std::path::Path;

/// Writes `frames` as a looping animated PNG file, each shown for `frame_delay_ms`
/// milliseconds (0: as fast as the viewer can). Written via a temporary sibling and a rename.
///
/// # Errors
/// As [`apng_bytes`], plus the file errors of [`Image::save_png`].
pub fn save_apng(
    path: impl AsRef<Path>,
    frames: &[Image],
    frame_delay_ms: u16,
) -> Result<(), ExportError> {
    check_frames(frames)?;
    write_file(path.as_ref(), |w| encode(w, frames, frame_delay_ms))
}

/// The animated PNG in memory. See [`save_apng`].
///
/// # Errors
/// [`ExportError::InvalidOption`] without frames or for a frame of zero size;
/// [`ExportError::LengthMismatch`] for a frame whose `rgb` is not `3 * width * height`
/// bytes; [`ExportError::FrameSizeMismatch`] for a frame of another size than the first.
///
/// ```
/// use export::Image;
/// let frames = [Image::new(8, 4, [255, 0, 0]), Image::new(8, 4, [0, 0, 255])];
/// let apng = export::apng::apng_bytes(&frames, 100)?;
/// assert_eq!(&apng[1..4], b"PNG");
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn apng_bytes(frames: &[Image], frame_delay_ms: u16) -> Result<Vec<u8>, ExportError> {
    check_frames(frames)?;
    let mut out = Vec::new();
    encode(&mut out, frames, frame_delay_ms)?;
    Ok(out)
}

fn check_frames(frames: &[Image]) -> Result<(), ExportError> {
    let Some(first) = frames.first() else {
        return Err(ExportError::InvalidOption {
            name: "frames",
            reason: "an animation needs at least one frame",
        });
    };
    if u32::try_from(frames.len()).is_err() {
        return Err(ExportError::TooLarge {
            what: "frame count",
        });
    }
    let expected = (first.width, first.height);
    for (i, f) in frames.iter().enumerate() {
        f.check()?;
        if (f.width, f.height) != expected {
            return Err(ExportError::FrameSizeMismatch {
                frame: i,
                expected,
                got: (f.width, f.height),
            });
        }
    }
    Ok(())
}

fn encode<W: std::io::Write>(w: W, frames: &[Image], delay_ms: u16) -> Result<(), ExportError> {
    let first = &frames[0];
    let mut enc = png::Encoder::new(w, first.width, first.height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    enc.set_compression(png::Compression::Fast);
    // Zero plays: loop forever.
    enc.set_animated(frames.len() as u32, 0).map_err(png_err)?;
    enc.set_frame_delay(delay_ms, 1000).map_err(png_err)?;
    let mut writer = enc.write_header().map_err(png_err)?;
    for f in frames {
        writer.write_image_data(&f.rgb).map_err(png_err)?;
    }
    writer.finish().map_err(png_err)
}
