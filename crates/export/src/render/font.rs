//! A 5×7 bitmap font for captions and legends: upper-case letters, digits and a little
//! punctuation, drawn as crisp blocks (no font files, no dependencies).

use super::raster::Canvas;
use glam::Vec3;

/// Glyph cell: 5 columns of ink plus 1 of spacing, 7 rows.
pub(crate) const ADVANCE: u32 = 6;
/// Rows of a glyph.
pub(crate) const HEIGHT: u32 = 7;

/// The rows of `c` (bit 4 = leftmost column); lower-case letters use the capitals and
/// anything unknown draws as `?`.
pub(crate) fn glyph(c: char) -> [u8; 7] {
    match c.to_ascii_uppercase() {
        'A' => [14, 17, 17, 31, 17, 17, 17],
        'B' => [30, 17, 17, 30, 17, 17, 30],
        'C' => [14, 17, 16, 16, 16, 17, 14],
        'D' => [28, 18, 17, 17, 17, 18, 28],
        'E' => [31, 16, 16, 30, 16, 16, 31],
        'F' => [31, 16, 16, 30, 16, 16, 16],
        'G' => [14, 17, 16, 23, 17, 17, 15],
        'H' => [17, 17, 17, 31, 17, 17, 17],
        'I' => [14, 4, 4, 4, 4, 4, 14],
        'J' => [7, 2, 2, 2, 2, 18, 12],
        'K' => [17, 18, 20, 24, 20, 18, 17],
        'L' => [16, 16, 16, 16, 16, 16, 31],
        'M' => [17, 27, 21, 21, 17, 17, 17],
        'N' => [17, 17, 25, 21, 19, 17, 17],
        'O' => [14, 17, 17, 17, 17, 17, 14],
        'P' => [30, 17, 17, 30, 16, 16, 16],
        'Q' => [14, 17, 17, 17, 21, 18, 13],
        'R' => [30, 17, 17, 30, 20, 18, 17],
        'S' => [15, 16, 16, 14, 1, 1, 30],
        'T' => [31, 4, 4, 4, 4, 4, 4],
        'U' => [17, 17, 17, 17, 17, 17, 14],
        'V' => [17, 17, 17, 17, 17, 10, 4],
        'W' => [17, 17, 17, 21, 21, 21, 10],
        'X' => [17, 17, 10, 4, 10, 17, 17],
        'Y' => [17, 17, 10, 4, 4, 4, 4],
        'Z' => [31, 1, 2, 4, 8, 16, 31],
        '0' => [14, 17, 19, 21, 25, 17, 14],
        '1' => [4, 12, 4, 4, 4, 4, 14],
        '2' => [14, 17, 1, 2, 4, 8, 31],
        '3' => [31, 2, 4, 2, 1, 17, 14],
        '4' => [2, 6, 10, 18, 31, 2, 2],
        '5' => [31, 16, 30, 1, 1, 17, 14],
        '6' => [6, 8, 16, 30, 17, 17, 14],
        '7' => [31, 1, 2, 4, 8, 8, 8],
        '8' => [14, 17, 17, 14, 17, 17, 14],
        '9' => [14, 17, 17, 15, 1, 2, 12],
        ' ' => [0; 7],
        '-' => [0, 0, 0, 31, 0, 0, 0],
        '.' => [0, 0, 0, 0, 0, 12, 12],
        ',' => [0, 0, 0, 0, 12, 4, 8],
        ':' => [0, 12, 12, 0, 12, 12, 0],
        '(' => [2, 4, 8, 8, 8, 4, 2],
        ')' => [8, 4, 2, 2, 2, 4, 8],
        '/' => [1, 1, 2, 4, 8, 16, 16],
        '+' => [0, 4, 4, 31, 4, 4, 0],
        '=' => [0, 0, 31, 0, 31, 0, 0],
        '%' => [24, 25, 2, 4, 8, 19, 3],
        // Superscript two, for km².
        '²' => [12, 2, 4, 14, 0, 0, 0],
        _ => [14, 17, 1, 2, 4, 0, 4],
    }
}

/// Width in pixels of `text` drawn at `scale`.
pub(crate) fn text_width(text: &str, scale: u32) -> u32 {
    (text.chars().count() as u32 * ADVANCE).saturating_sub(1) * scale
}

/// Draws `text` with its top-left corner at `(x, y)`, each font pixel a `scale × scale`
/// block; whatever falls outside the canvas is clipped.
pub(crate) fn draw_text(
    canvas: &mut Canvas<'_>,
    x: i64,
    y: i64,
    text: &str,
    scale: u32,
    color: Vec3,
) {
    let s = i64::from(scale.max(1));
    for (i, c) in text.chars().enumerate() {
        let x0 = x + i as i64 * i64::from(ADVANCE) * s;
        for (row, bits) in glyph(c).iter().enumerate() {
            for col in 0..5 {
                if bits & (16 >> col) != 0 {
                    canvas.fill_rect(x0 + col * s, y + row as i64 * s, s, s, color);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_fit_five_columns_and_differ() {
        let chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.,:()/+=%";
        let mut seen = std::collections::HashSet::new();
        for c in chars.chars() {
            let g = glyph(c);
            assert!(g.iter().all(|&r| r < 32), "{c}");
            assert!(g.iter().any(|&r| r != 0), "{c} is blank");
            assert!(seen.insert(g), "{c} looks like another glyph");
        }
        assert_eq!(glyph('a'), glyph('A'));
        assert_eq!(text_width("AB", 2), 22);
    }

    #[test]
    fn text_is_drawn_where_asked_and_clipped_at_the_edges() {
        let mut px = vec![Vec3::ZERO; 20 * 20];
        let mut canvas = Canvas {
            px: &mut px,
            size: 20,
        };
        draw_text(&mut canvas, 1, 1, "I", 1, Vec3::ONE);
        // 'I' is rows 14, 4, 4, …: three pixels on top, then the middle column.
        let lit = |x: usize, y: usize, px: &[Vec3]| px[y * 20 + x] == Vec3::ONE;
        assert!(lit(2, 1, &px) && lit(3, 1, &px) && lit(4, 1, &px) && !lit(1, 1, &px));
        assert!(lit(3, 2, &px) && !lit(2, 2, &px));
        let mut canvas = Canvas {
            px: &mut px,
            size: 20,
        };
        draw_text(&mut canvas, -30, -30, "WWWWWWWWWW", 3, Vec3::ONE);
        draw_text(&mut canvas, 15, 15, "WWWW", 3, Vec3::ONE);
    }
}
