//! A small MessagePack decoder for the few types an Attempt This Online link holds (nil,
//! booleans, integers, strings, binaries, arrays, maps), bounded: nesting at most
//! [`DEPTH`] deep, every length checked against the bytes left, so a crafted length
//! allocates nothing. Floats and extension types are refused. Made here rather than taken
//! from `rmp`, whose reader needs three crates for these few markers.

/// How deep arrays and maps may nest.
pub const DEPTH: usize = 8;

/// A decoded value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `nil`.
    Nil,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i128),
    /// A string's bytes (UTF-8 as written; not checked).
    Str(Vec<u8>),
    /// A binary.
    Bin(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map's pairs, in order.
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// The bytes of a string or binary.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match self {
            Value::Str(b) | Value::Bin(b) => Some(b.clone()),
            _ => None,
        }
    }
}

/// Why bytes are not a MessagePack value.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The bytes end inside a value.
    #[error("it ends inside a value at byte {0}")]
    End(usize),
    /// A marker this decoder does not take.
    #[error("marker 0x{0:02x} at byte {1} is not one ATO writes")]
    Marker(u8, usize),
    /// Nested too deep.
    #[error("it nests deeper than {DEPTH}")]
    Deep,
    /// Bytes after the value.
    #[error("{0} bytes follow the value")]
    Trailing(usize),
}

/// Decodes the one value `bytes` hold.
pub fn decode(bytes: &[u8]) -> Result<Value, Error> {
    let mut reader = Reader { bytes, at: 0 };
    let value = reader.value(0)?;
    match bytes.len() - reader.at {
        0 => Ok(value),
        n => Err(Error::Trailing(n)),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(Error::End(self.at))?;
        let got = &self.bytes[self.at..end];
        self.at = end;
        Ok(got)
    }

    fn uint(&mut self, n: usize) -> Result<u64, Error> {
        Ok(self
            .take(n)?
            .iter()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b)))
    }

    fn int(&mut self, n: usize) -> Result<i128, Error> {
        let raw = self.uint(n)?;
        let bits = 8 * n as u32;
        let signed = match bits {
            64 => i128::from(raw as i64),
            _ if raw >> (bits - 1) & 1 == 1 => i128::from(raw) - (1i128 << bits),
            _ => i128::from(raw),
        };
        Ok(signed)
    }

    fn len(&mut self, n: usize) -> Result<usize, Error> {
        let len = usize::try_from(self.uint(n)?).map_err(|_| Error::End(self.at))?;
        // Every element takes at least a byte: a length past the bytes left is a lie.
        match len <= self.bytes.len() - self.at {
            true => Ok(len),
            false => Err(Error::End(self.at)),
        }
    }

    fn items(&mut self, n: usize, depth: usize) -> Result<Vec<Value>, Error> {
        (0..n).map(|_| self.value(depth + 1)).collect()
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        if depth > DEPTH {
            return Err(Error::Deep);
        }
        let at = self.at;
        let marker = self.take(1)?[0];
        Ok(match marker {
            0x00..=0x7f => Value::Int(i128::from(marker)),
            0xe0..=0xff => Value::Int(i128::from(marker as i8)),
            0xc0 => Value::Nil,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xcc..=0xcf => Value::Int(i128::from(self.uint(1 << (marker - 0xcc))?)),
            0xd0..=0xd3 => Value::Int(self.int(1 << (marker - 0xd0))?),
            0xa0..=0xbf => Value::Str(self.take(usize::from(marker & 0x1f))?.to_vec()),
            0xd9..=0xdb => {
                let n = self.len(1 << (marker - 0xd9))?;
                Value::Str(self.take(n)?.to_vec())
            }
            0xc4..=0xc6 => {
                let n = self.len(1 << (marker - 0xc4))?;
                Value::Bin(self.take(n)?.to_vec())
            }
            0x90..=0x9f => Value::Array(self.items(usize::from(marker & 0x0f), depth)?),
            0xdc | 0xdd => {
                let n = self.len(2 << (marker - 0xdc))?;
                Value::Array(self.items(n, depth)?)
            }
            0x80..=0x8f => Value::Map(self.pairs(usize::from(marker & 0x0f), depth)?),
            0xde | 0xdf => {
                let n = self.len(2 << (marker - 0xde))?;
                Value::Map(self.pairs(n, depth)?)
            }
            _ => return Err(Error::Marker(marker, at)),
        })
    }

    fn pairs(&mut self, n: usize, depth: usize) -> Result<Vec<(Value, Value)>, Error> {
        (0..n)
            .map(|_| Ok((self.value(depth + 1)?, self.value(depth + 1)?)))
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A MessagePack array of strings, as `@msgpack/msgpack` encodes it.
    pub(crate) fn encode_str_array(items: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        match items.len() {
            n @ 0..=15 => out.push(0x90 | n as u8),
            n => {
                out.push(0xdc);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
        }
        for s in items {
            match s.len() {
                n @ 0..=31 => out.push(0xa0 | n as u8),
                n @ 32..=255 => out.extend_from_slice(&[0xd9, n as u8]),
                n => {
                    out.push(0xda);
                    out.extend_from_slice(&(n as u16).to_be_bytes());
                }
            }
            out.extend_from_slice(s.as_bytes());
        }
        out
    }

    #[test]
    fn the_types_ato_writes_decode() {
        let long = "x".repeat(300);
        let bytes = encode_str_array(&["perl5", "", &long]);
        let Ok(Value::Array(items)) = decode(&bytes) else {
            panic!("an array");
        };
        assert_eq!(items[0], Value::Str(b"perl5".to_vec()));
        assert_eq!(items[2].bytes().map(|b| b.len()), Some(300));
        assert_eq!(decode(&[0xd0, 0xff]), Ok(Value::Int(-1)));
        assert_eq!(decode(&[0xcd, 0x01, 0x00]), Ok(Value::Int(256)));
    }

    #[test]
    fn a_crafted_length_or_nesting_is_refused_without_allocating() {
        // Lengths of 4 GiB with nothing behind them end the read at once.
        assert_eq!(decode(&[0xdd, 0xff, 0xff, 0xff, 0xff]), Err(Error::End(5)));
        assert_eq!(
            decode(&[0xdb, 0xff, 0xff, 0xff, 0xff, 0x00]),
            Err(Error::End(5))
        );
        assert_eq!(decode(&[0x91; 40]), Err(Error::Deep));
        assert_eq!(
            decode(&[0xcb, 0, 0, 0, 0, 0, 0, 0, 0]),
            Err(Error::Marker(0xcb, 0))
        );
        assert_eq!(decode(&[0xc0, 0xc0]), Err(Error::Trailing(1)));
    }
}
