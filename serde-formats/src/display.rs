//! Display helpers shared by the formats' spellings of their types and values.

use std::fmt;

/// Writes `items` between `open` and `close`, separated by `sep`, each with `item`.
pub(crate) fn write_separated<T>(
    f: &mut fmt::Formatter<'_>,
    [open, sep, close]: [&str; 3],
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut fmt::Formatter<'_>, T) -> fmt::Result,
) -> fmt::Result {
    f.write_str(open)?;
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        item(f, x)?;
    }
    f.write_str(close)
}
