//! The type array as the serializer builds it, stored the way its destination wants it: native
//! words for [`TypedColumns`](super::TypedColumns) (`into_columns` hands the vector over), or
//! little-endian words in a byte buffer whose first 8 bytes are kept for the frame's word count
//! (`to_bytes` writes the count and appends the data instead of copying every type word once
//! more). Converting afterwards would copy the largest array into fresh memory, and on the
//! machines we measure faulting in fresh pages costs more than writing the words.

/// The type words being written.
#[derive(Debug, Clone)]
pub(super) enum Words {
    /// Native words, for `into_columns`.
    Native(Vec<u64>),
    /// Little-endian words after [`HEAD`] bytes kept for the frame head's word count.
    Framed(Vec<u8>),
}

/// Bytes before the first framed word: the frame's word count.
const HEAD: usize = 8;

impl Default for Words {
    fn default() -> Self {
        Words::new()
    }
}

impl Words {
    /// Words for `into_columns`.
    pub(super) fn new() -> Self {
        Words::Native(Vec::new())
    }

    /// Words for `into_bytes`: the frame is built around them.
    pub(super) fn framed() -> Self {
        Words::Framed(vec![0; HEAD])
    }

    /// Number of words.
    #[inline]
    pub(super) fn len(&self) -> usize {
        match self {
            Words::Native(words) => words.len(),
            Words::Framed(bytes) => (bytes.len() - HEAD) / 8,
        }
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held (the framed head included): what growth of the array is measured in.
    #[inline]
    pub(super) fn byte_len(&self) -> usize {
        match self {
            Words::Native(words) => words.len() * 8,
            Words::Framed(bytes) => bytes.len(),
        }
    }

    /// Word `index`; callers only read words they wrote.
    #[inline]
    pub(super) fn get(&self, index: usize) -> u64 {
        match self {
            Words::Native(words) => words[index],
            Words::Framed(bytes) => {
                let at = HEAD + index * 8;
                let mut le = [0; 8];
                le.copy_from_slice(&bytes[at..at + 8]);
                u64::from_le_bytes(le)
            }
        }
    }

    /// Overwrites the three words from word `at`.
    #[inline]
    pub(super) fn set3(&mut self, at: usize, words: [u64; 3]) {
        match self {
            Words::Native(native) => native[at..at + 3].copy_from_slice(&words),
            Words::Framed(bytes) => {
                let start = HEAD + at * 8;
                let target = &mut bytes[start..start + 24];
                for (chunk, word) in target.chunks_exact_mut(8).zip(words) {
                    chunk.copy_from_slice(&word.to_le_bytes());
                }
            }
        }
    }

    /// Grows (with zero words) or shrinks to `words` words.
    #[inline]
    pub(super) fn resize(&mut self, words: usize) {
        /// Growth up to this many words (eight descriptions: a struct's fields) appends a
        /// fixed block of zeros and cuts it back: a few wide stores instead of a memset call.
        const SMALL: usize = 24;
        match self {
            Words::Native(native) => {
                if words > native.len() && words - native.len() <= SMALL {
                    native.extend_from_slice(&[0; SMALL]);
                    native.truncate(words);
                } else {
                    native.resize(words, 0);
                }
            }
            Words::Framed(bytes) => {
                let len = HEAD + words * 8;
                if len > bytes.len() && len - bytes.len() <= SMALL * 8 {
                    bytes.extend_from_slice(&[0; SMALL * 8]);
                    bytes.truncate(len);
                } else {
                    bytes.resize(len, 0);
                }
            }
        }
    }

    pub(super) fn truncate(&mut self, words: usize) {
        match self {
            Words::Native(native) => native.truncate(words),
            Words::Framed(bytes) => bytes.truncate(HEAD + words * 8),
        }
    }

    #[inline]
    pub(super) fn extend(&mut self, words: &[u64]) {
        match self {
            Words::Native(native) => native.extend_from_slice(words),
            Words::Framed(bytes) => {
                let start = bytes.len();
                bytes.resize(start + words.len() * 8, 0);
                for (chunk, word) in bytes[start..].chunks_exact_mut(8).zip(words) {
                    chunk.copy_from_slice(&word.to_le_bytes());
                }
            }
        }
    }

    /// Makes room for `bytes` more bytes (words, or data to be appended by `into_frame`).
    pub(super) fn reserve_bytes(&mut self, more: usize) {
        match self {
            Words::Native(native) => native.reserve(more.div_ceil(8)),
            Words::Framed(bytes) => bytes.reserve(more),
        }
    }

    /// The words in native form.
    pub(super) fn into_vec(self) -> Vec<u64> {
        match self {
            Words::Native(native) => native,
            Words::Framed(bytes) => bytes[HEAD..]
                .chunks_exact(8)
                .map(|chunk| {
                    let mut le = [0; 8];
                    le.copy_from_slice(chunk);
                    u64::from_le_bytes(le)
                })
                .collect(),
        }
    }

    /// Writes the frame head: the word count then the words, little-endian.
    pub(super) fn write_head<W: std::io::Write>(&mut self, mut writer: W) -> std::io::Result<()> {
        let count = (self.len() as u64).to_le_bytes();
        match self {
            Words::Native(native) => {
                writer.write_all(&count)?;
                // In pieces, so the head is never held twice in memory.
                let mut buffer = Vec::with_capacity(8192);
                for chunk in native.chunks(1024) {
                    buffer.clear();
                    buffer.extend(chunk.iter().flat_map(|word| word.to_le_bytes()));
                    writer.write_all(&buffer)?;
                }
                Ok(())
            }
            Words::Framed(bytes) => {
                bytes[..HEAD].copy_from_slice(&count);
                writer.write_all(bytes)
            }
        }
    }

    /// The framed value: the head, then `data`. Framed words get the data appended when their
    /// buffer has room (or is not smaller than the data); otherwise the data moves up in place
    /// inside its own buffer's spare capacity, so only the smaller array is copied. Native
    /// words are copied into a new buffer.
    pub(super) fn into_frame(self, mut data: Vec<u8>) -> Vec<u8> {
        let mut bytes = match self {
            Words::Native(types) => return super::TypedColumns { types, data }.to_bytes(),
            Words::Framed(bytes) => bytes,
        };
        let count = (((bytes.len() - HEAD) / 8) as u64).to_le_bytes();
        bytes[..HEAD].copy_from_slice(&count);
        let head = bytes.len();
        let fits_head = bytes.capacity() - head >= data.len();
        if !fits_head && data.capacity() - data.len() >= head && data.len() > head {
            let len = data.len();
            data.resize(len + head, 0);
            data.copy_within(..len, head);
            data[..head].copy_from_slice(&bytes);
            return data;
        }
        bytes.reserve_exact(data.len());
        bytes.extend_from_slice(&data);
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same edits in either store give the same words and the same frame.
    #[test]
    fn words_frame_either_way() {
        for start in [Words::new(), Words::framed()] {
            let mut words = start;
            words.extend(&[4, 0, 2]);
            words.extend(&[2 | (1 << 63), 2, 8]);
            words.set3(0, [4, 0, 3]);
            assert_eq!(words.len(), 6);
            assert_eq!(words.byte_len() % 8, 0);
            assert_eq!(words.get(2), 3);
            assert_eq!(words.clone().into_vec(), [4, 0, 3, 2 | (1 << 63), 2, 8]);
            let mut expected: Vec<u8> = [6u64, 4, 0, 3, 2 | (1 << 63), 2, 8]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            let mut head = Vec::new();
            words.write_head(&mut head).unwrap();
            assert_eq!(head, expected);
            expected.extend_from_slice(b"abc");
            // Data without spare room: appended to the head.
            assert_eq!(words.clone().into_frame(b"abc".to_vec()), expected);
            // Data with room for the head and larger than it: moved up in place.
            let mut data = Vec::with_capacity(200);
            data.extend_from_slice(&[7; 100]);
            let mut expected = expected[..56].to_vec();
            expected.extend_from_slice(&[7; 100]);
            let framed = words.clone().into_frame(data);
            assert_eq!(framed, expected);
            words.truncate(3);
            words.resize(4);
            assert_eq!(words.clone().into_vec(), [4, 0, 3, 0]);
            // Small growth (a block of zeros cut back) and large growth (a plain resize).
            words.resize(30);
            words.resize(100);
            let grown = words.clone().into_vec();
            assert_eq!(grown.len(), 100);
            assert_eq!(grown[..4], [4, 0, 3, 0]);
            assert!(grown[4..].iter().all(|&word| word == 0));
            assert!(!words.is_empty());
        }
        assert!(Words::new().is_empty() && Words::framed().is_empty());
    }
}
