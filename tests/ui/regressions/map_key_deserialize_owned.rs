//! A table generic over its map key, with the key bounded the way serde_columnar's users write it
//! (`for<'a> Deserialize<'a>`, i.e. `DeserializeOwned`). serde_columnar 0.3.14 compiles this and
//! writes `01 02 01 01 02 01 02` for the value below.
use std::collections::BTreeMap;

use columnar::columnar;
use serde::{Deserialize, Serialize};

#[columnar(map, ser, de)]
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub x: u8,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
pub struct Keyed<K>
where
    K: Ord + Clone + std::hash::Hash + Serialize + for<'a> Deserialize<'a>,
{
    #[columnar(class = "map")]
    pub map: BTreeMap<K, Row>,
}

fn main() {
    let table = Keyed {
        map: [(1u8, Row { x: 2 })].into_iter().collect(),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    assert_eq!(bytes, [0x01, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]);
    assert_eq!(columnar::from_bytes::<Keyed<u8>>(&bytes).unwrap(), table);
}
