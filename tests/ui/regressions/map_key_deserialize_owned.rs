//! Tables generic over their map key, with the key bounded the ways serde_columnar's users write
//! it: `for<'a> Deserialize<'a>` in a where clause, `DeserializeOwned`, or a trait that implies
//! it (`Rleable`). serde_columnar 0.3.14 compiles all three with `Hash` added (its map wrapper
//! needs it; columnar does not, which `Keyed` checks) and writes `01 02 01 01 02 01 02` for the
//! values below.
use std::collections::BTreeMap;

use columnar::columnar;
use serde::de::DeserializeOwned;
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
    K: Ord + Clone + Serialize + for<'a> Deserialize<'a>,
{
    #[columnar(class = "map")]
    pub map: BTreeMap<K, Row>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
pub struct Owned<K: Ord + Clone + std::hash::Hash + Serialize + DeserializeOwned> {
    #[columnar(class = "map")]
    pub map: BTreeMap<K, Row>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
pub struct ByRleable<K: columnar::Rleable + Ord + std::hash::Hash> {
    #[columnar(class = "map")]
    pub map: BTreeMap<K, Row>,
}

fn main() {
    let map: BTreeMap<u8, Row> = [(1, Row { x: 2 })].into_iter().collect();
    let keyed = Keyed { map: map.clone() };
    let bytes = columnar::to_vec(&keyed).unwrap();
    assert_eq!(bytes, [0x01, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]);
    assert_eq!(columnar::from_bytes::<Keyed<u8>>(&bytes).unwrap(), keyed);
    let owned = Owned { map: map.clone() };
    assert_eq!(columnar::to_vec(&owned).unwrap(), bytes);
    assert_eq!(columnar::from_bytes::<Owned<u8>>(&bytes).unwrap(), owned);
    let by_rleable = ByRleable { map };
    assert_eq!(columnar::to_vec(&by_rleable).unwrap(), bytes);
    assert_eq!(
        columnar::from_bytes::<ByRleable<u8>>(&bytes).unwrap(),
        by_rleable
    );
}
