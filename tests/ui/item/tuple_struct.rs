use columnar::columnar;

#[columnar(vec)]
struct Row(u64, String);

fn main() {}
