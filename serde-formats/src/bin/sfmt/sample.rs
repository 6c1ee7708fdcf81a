//! The dataset `sfmt compare` uses when given no file: weather-station records generated from
//! a fixed seed, so every run and every machine compares the same bytes (about 300 KB of JSON).

use serde_json::{json, Value as Json};

/// Stations in the sample.
const STATIONS: u64 = 400;
/// Hourly readings per station.
const HOURS: usize = 24;

/// A small deterministic generator (xorshift64*), enough for sample data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A float in `[lo, hi)` rounded to two decimals, as a sensor would report it.
    fn float(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((lo + unit * (hi - lo)) * 100.0).round() / 100.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const TAGS: [&str; 6] = [
    "coastal", "urban", "rural", "mountain", "airport", "rooftop",
];

/// The sample dataset.
pub fn dataset() -> Json {
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    let stations: Vec<Json> = (0..STATIONS)
        .map(|id| {
            let base = rng.float(-5.0, 30.0);
            let readings: Vec<f64> = (0..HOURS)
                .map(|_| rng.float(base - 4.0, base + 4.0))
                .collect();
            let counts: Vec<u64> = (0..HOURS).map(|_| rng.below(500)).collect();
            let tags: Vec<&str> = (0..1 + rng.below(3))
                .map(|_| TAGS[rng.below(TAGS.len() as u64) as usize])
                .collect();
            let note = if rng.below(4) == 0 {
                Json::String(format!("maintenance due in {} days", rng.below(90)))
            } else {
                Json::Null
            };
            json!({
                "id": id,
                "name": format!("station-{id:04}"),
                "active": rng.below(10) != 0,
                "location": {"lat": rng.float(-60.0, 70.0), "lon": rng.float(-180.0, 180.0)},
                "elevation_m": rng.below(3000),
                "tags": tags,
                "readings_c": readings,
                "vehicle_counts": counts,
                "note": note,
            })
        })
        .collect();
    json!({
        "dataset": "sfmt sample: hourly readings of weather stations",
        "version": 1,
        "stations": stations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_deterministic_and_a_few_hundred_kb() {
        let a = serde_json::to_vec(&dataset()).unwrap();
        assert_eq!(a, serde_json::to_vec(&dataset()).unwrap());
        assert!((150_000..600_000).contains(&a.len()), "{}", a.len());
    }
}
