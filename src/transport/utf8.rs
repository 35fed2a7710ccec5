//! Text of a byte stream for inspectors (the traffic observer): UTF-8 decoded chunk by chunk,
//! holding back a character split across chunks so it is not shown as two replacement characters.

/// A streaming UTF-8 decoder (lossy only for bytes that are really invalid).
#[derive(Debug, Default)]
pub struct Utf8Stream {
    held: Vec<u8>,
}

impl Utf8Stream {
    /// The text of `bytes` after what was held back; an incomplete last character is held.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.held.extend_from_slice(bytes);
        let keep = match std::str::from_utf8(&self.held) {
            Ok(_) => 0,
            // `error_len() == None`: the input ended inside a character.
            Err(e) if e.error_len().is_none() => self.held.len() - e.valid_up_to(),
            Err(_) => 0,
        };
        let tail = self.held.split_off(self.held.len() - keep);
        let text = String::from_utf8_lossy(&self.held).into_owned();
        self.held = tail;
        text
    }

    /// What is still held at the end of the stream (lossy).
    pub fn finish(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.held).into_owned();
        self.held.clear();
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_across_chunks_is_decoded_whole() {
        let text = "zürich 東京";
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let mut s = Utf8Stream::default();
            let mut out = s.push(&bytes[..cut]);
            out += &s.push(&bytes[cut..]);
            out += &s.finish();
            assert_eq!(out, text, "cut at {cut}");
        }
    }

    #[test]
    fn invalid_bytes_are_replaced_and_a_truncated_end_is_flushed() {
        let mut s = Utf8Stream::default();
        assert_eq!(s.push(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(s.push(b"c\xe6\x9d"), "c");
        assert_eq!(s.finish(), "\u{fffd}");
    }
}
