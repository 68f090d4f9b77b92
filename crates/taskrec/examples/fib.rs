//! Naive Fibonacci with `taskrec::join`: `VATES_TASKREC=fib.dag cargo run --release -p taskrec
//! --example fib -- 30` records its DAG.

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(25);
    let v = taskrec::run("fib", &[("n", n as f64)], || fib(n));
    println!("fib({n}) = {v}");
}
