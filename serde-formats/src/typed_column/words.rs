//! The type array as the serializer builds it: little-endian words in a byte buffer whose first
//! 8 bytes are kept for the frame's word count, so that framing a value ([`Words::into_frame`])
//! writes the count and appends the data instead of copying every type word once more.

/// Type words, little-endian, after 8 bytes kept for the frame head's word count.
#[derive(Debug, Clone)]
pub(super) struct Words {
    bytes: Vec<u8>,
}

/// Bytes before the first word: the frame's word count.
const HEAD: usize = 8;

impl Default for Words {
    fn default() -> Self {
        Words::new()
    }
}

impl Words {
    pub(super) fn new() -> Self {
        Words {
            bytes: vec![0; HEAD],
        }
    }

    pub(super) fn from_words(words: &[u64]) -> Self {
        let mut out = Words {
            bytes: Vec::with_capacity(HEAD + words.len() * 8),
        };
        out.bytes.resize(HEAD, 0);
        out.extend(words);
        out
    }

    /// Number of words.
    #[inline]
    pub(super) fn len(&self) -> usize {
        (self.bytes.len() - HEAD) / 8
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.bytes.len() == HEAD
    }

    /// Bytes held, the head included: what growth of the array is measured in.
    #[inline]
    pub(super) fn byte_len(&self) -> usize {
        self.bytes.len()
    }

    /// Word `index`; callers only read words they wrote.
    #[inline]
    pub(super) fn get(&self, index: usize) -> u64 {
        let at = HEAD + index * 8;
        let mut le = [0; 8];
        le.copy_from_slice(&self.bytes[at..at + 8]);
        u64::from_le_bytes(le)
    }

    /// Overwrites the three words from word `at`.
    #[inline]
    pub(super) fn set3(&mut self, at: usize, words: [u64; 3]) {
        let start = HEAD + at * 8;
        let target = &mut self.bytes[start..start + 24];
        for (chunk, word) in target.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
    }

    /// Grows (with zero words) or shrinks to `words` words.
    #[inline]
    pub(super) fn resize(&mut self, words: usize) {
        self.bytes.resize(HEAD + words * 8, 0);
    }

    pub(super) fn truncate(&mut self, words: usize) {
        self.bytes.truncate(HEAD + words * 8);
    }

    #[inline]
    pub(super) fn extend(&mut self, words: &[u64]) {
        let start = self.bytes.len();
        self.bytes.resize(start + words.len() * 8, 0);
        for (chunk, word) in self.bytes[start..].chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
    }

    /// Makes room for `bytes` more bytes (words, or data to be appended by `into_frame`).
    pub(super) fn reserve_bytes(&mut self, bytes: usize) {
        self.bytes.reserve(bytes);
    }

    /// The words in native form.
    pub(super) fn to_vec(&self) -> Vec<u64> {
        self.bytes[HEAD..]
            .chunks_exact(8)
            .map(|chunk| {
                let mut le = [0; 8];
                le.copy_from_slice(chunk);
                u64::from_le_bytes(le)
            })
            .collect()
    }

    /// The frame head: the word count then the words, little-endian.
    pub(super) fn head(&mut self) -> &[u8] {
        let count = (self.len() as u64).to_le_bytes();
        self.bytes[..HEAD].copy_from_slice(&count);
        &self.bytes
    }

    /// The framed value: the head, then `data`. The data is appended to the head's buffer
    /// when that has room (or is not smaller than the data); otherwise it moves up in place
    /// inside its own buffer's spare capacity, so only the smaller array is copied.
    pub(super) fn into_frame(mut self, mut data: Vec<u8>) -> Vec<u8> {
        self.head();
        let head = self.bytes.len();
        let fits_head = self.bytes.capacity() - head >= data.len();
        if !fits_head && data.capacity() - data.len() >= head && data.len() > head {
            let len = data.len();
            data.resize(len + head, 0);
            data.copy_within(..len, head);
            data[..head].copy_from_slice(&self.bytes);
            return data;
        }
        self.bytes.reserve_exact(data.len());
        self.bytes.extend_from_slice(&data);
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_frame_either_way() {
        let mut words = Words::from_words(&[4, 0, 2]);
        words.extend(&[2 | (1 << 63), 2, 8]);
        words.set3(0, [4, 0, 3]);
        assert_eq!(words.len(), 6);
        assert_eq!(words.get(2), 3);
        assert_eq!(words.to_vec(), [4, 0, 3, 2 | (1 << 63), 2, 8]);
        let mut expected: Vec<u8> = [6u64, 4, 0, 3, 2 | (1 << 63), 2, 8]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
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
        assert_eq!(words.to_vec(), [4, 0, 3, 0]);
        assert!(!words.is_empty() && Words::new().is_empty());
    }
}
