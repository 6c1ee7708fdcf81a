use columnar::columnar;

#[columnar(vec)]
struct Row {
    #[columnar(strategy = "BoolRle")]
    flag: u8,
}

fn main() {}
