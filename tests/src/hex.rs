//! Hex in the tests: the annotated hex of the golden files and of the fuzz regression inputs, and
//! bytes shown as hex in assertion messages.

use std::fmt;
use std::path::Path;

/// Parses annotated hex: `#` starts a comment, whitespace is ignored.
///
/// # Panics
///
/// On an odd number of digits or a character that is not a hex digit.
pub fn parse(text: &str) -> Vec<u8> {
    let digits: String = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .flat_map(|line| line.chars().filter(|c| !c.is_whitespace()))
        .collect();
    assert!(
        digits.len().is_multiple_of(2),
        "odd number of hex digits in {text:.80?}"
    );
    (0..digits.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&digits[i..i + 2], 16)
                .unwrap_or_else(|_| panic!("not hex: {:?}", &digits[i..i + 2]))
        })
        .collect()
}

/// Reads the annotated hex file `tests/<relative>` (for example `golden/typed_column/true.hex`).
///
/// # Panics
///
/// When the file cannot be read or is not annotated hex.
pub fn read(relative: impl AsRef<Path>) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    parse(&text)
}

/// Bytes shown as space-separated hex in assertion messages (`assert_eq!(Hex(&a), Hex(&b))`).
#[derive(PartialEq, Eq)]
pub struct Hex<'a>(pub &'a [u8]);

impl fmt::Debug for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}
