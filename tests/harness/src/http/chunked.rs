//! A push decoder for the chunked transfer coding (RFC 9112 § 7.1): bytes in, data slices out,
//! partial input is not an error; chunk-size lines and trailers are bounded.

/// Longest chunk-size line (with extensions) or trailer line accepted.
const MAX_LINE: usize = 4096;
/// Most trailer bytes accepted in total.
const MAX_TRAILERS: usize = 16 * 1024;

/// Why a chunked body could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkedError {
    /// A chunk-size line is not hexadecimal digits (RFC 9112 § 7.1 `chunk-size = 1*HEXDIG`).
    BadSize(String),
    /// A chunk's data is not followed by CRLF.
    MissingCrlf,
    /// A size or trailer line is longer than the bound.
    LineTooLong,
    /// A chunk size does not fit in 64 bits.
    SizeOverflow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Size,
    Data(u64),
    DataCr,
    DataLf,
    Trailer,
    Done,
}

/// The decoder.
#[derive(Debug)]
pub struct ChunkedDecoder {
    state: State,
    line: Vec<u8>,
    trailer_bytes: usize,
}

impl Default for ChunkedDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl ChunkedDecoder {
    /// A decoder at the start of a body.
    pub fn new() -> Self {
        ChunkedDecoder {
            state: State::Size,
            line: Vec::new(),
            trailer_bytes: 0,
        }
    }

    /// Whether the last chunk and the trailer section have been read.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// Feeds `input`; appends decoded data to `out`. Returns how many input bytes were used
    /// (fewer than `input.len()` only once done: the rest follows the message).
    pub fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<usize, ChunkedError> {
        let mut i = 0;
        while i < input.len() {
            match self.state {
                State::Done => return Ok(i),
                State::Size | State::Trailer => {
                    let b = input[i];
                    i += 1;
                    if b == b'\n' {
                        let mut line = std::mem::take(&mut self.line);
                        if line.last() == Some(&b'\r') {
                            line.pop();
                        }
                        self.end_line(&line)?;
                    } else {
                        if self.line.len() >= MAX_LINE {
                            return Err(ChunkedError::LineTooLong);
                        }
                        self.line.push(b);
                        if self.state == State::Trailer {
                            self.trailer_bytes += 1;
                            if self.trailer_bytes > MAX_TRAILERS {
                                return Err(ChunkedError::LineTooLong);
                            }
                        }
                    }
                }
                State::Data(left) => {
                    let n = (input.len() - i).min(usize::try_from(left).unwrap_or(usize::MAX));
                    out.extend_from_slice(&input[i..i + n]);
                    i += n;
                    let left = left - n as u64;
                    self.state = if left == 0 {
                        State::DataCr
                    } else {
                        State::Data(left)
                    };
                }
                State::DataCr => {
                    // A bare LF is tolerated (RFC 9112 § 2.2 allows recipients to).
                    self.state = match input[i] {
                        b'\r' => State::DataLf,
                        b'\n' => State::Size,
                        _ => return Err(ChunkedError::MissingCrlf),
                    };
                    i += 1;
                }
                State::DataLf => {
                    if input[i] != b'\n' {
                        return Err(ChunkedError::MissingCrlf);
                    }
                    i += 1;
                    self.state = State::Size;
                }
            }
        }
        Ok(i)
    }

    fn end_line(&mut self, line: &[u8]) -> Result<(), ChunkedError> {
        if self.state == State::Trailer {
            if line.is_empty() {
                self.state = State::Done;
            }
            return Ok(());
        }
        // chunk-size [ chunk-ext ]: extensions after ';' are ignored.
        let size_part = line.split(|b| *b == b';').next().unwrap_or_default();
        let digits = std::str::from_utf8(size_part)
            .map_err(|_| ChunkedError::BadSize(String::from_utf8_lossy(line).into_owned()))?
            .trim_matches([' ', '\t']);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ChunkedError::BadSize(digits.to_string()));
        }
        let size = u64::from_str_radix(digits, 16).map_err(|_| ChunkedError::SizeOverflow)?;
        self.state = if size == 0 {
            State::Trailer
        } else {
            State::Data(size)
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{ChunkedDecoder, ChunkedError};

    fn decode_split(body: &[u8], at: usize) -> Result<(Vec<u8>, bool), ChunkedError> {
        let mut d = ChunkedDecoder::new();
        let mut out = Vec::new();
        d.feed(&body[..at], &mut out)?;
        d.feed(&body[at..], &mut out)?;
        Ok((out, d.is_done()))
    }

    #[test]
    fn decodes_at_every_split() {
        let body =
            b"4\r\nWiki\r\n7;ext=1\r\npedia i\r\nB\r\nn \r\nchunks.\r\n0\r\nX-Trailer: 1\r\n\r\n";
        for at in 0..=body.len() {
            let (out, done) = decode_split(body, at).unwrap();
            assert_eq!(out, b"Wikipedia in \r\nchunks.", "split at {at}");
            assert!(done);
        }
    }

    #[test]
    fn stops_at_the_end_of_the_message() {
        let mut d = ChunkedDecoder::new();
        let mut out = Vec::new();
        let used = d.feed(b"1\r\na\r\n0\r\n\r\nEXTRA", &mut out).unwrap();
        assert_eq!(used, 11);
        assert!(d.is_done());
        assert_eq!(out, b"a");
    }

    #[test]
    fn partial_body_is_not_done() {
        let (out, done) = decode_split(b"5\r\nhel", 3).unwrap();
        assert_eq!(out, b"hel");
        assert!(!done);
    }

    #[test]
    fn rejects_bad_framing() {
        let mut out = Vec::new();
        assert!(matches!(
            ChunkedDecoder::new().feed(b"zz\r\n", &mut out),
            Err(ChunkedError::BadSize(_))
        ));
        assert_eq!(
            ChunkedDecoder::new().feed(b"1\r\naXY", &mut out),
            Err(ChunkedError::MissingCrlf)
        );
        assert_eq!(
            ChunkedDecoder::new().feed(&[b'1'; 5000], &mut out),
            Err(ChunkedError::LineTooLong)
        );
        assert_eq!(
            ChunkedDecoder::new().feed(b"1ffffffffffffffff\r\n", &mut out),
            Err(ChunkedError::SizeOverflow)
        );
    }
}
