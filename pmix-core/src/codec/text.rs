//! Floating-point values travel as text: the C `"%f"` rendering (six decimals) packed as a
//! string, read back the way `strtod` reads the start of a string.

/// The C `printf("%f", v)` rendering of `v` (glibc spelling of infinities and NaNs).
pub fn format_f(v: f64) -> String {
    if v.is_nan() {
        if v.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else if v.is_infinite() {
        if v < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        // Rust's fixed-precision formatting is exact and rounds ties to even, as glibc does.
        format!("{v:.6}")
    }
}

/// The number at the start of `s`, as `strtod` would read it: optional leading white space,
/// a sign, then a decimal number with optional fraction and exponent, or `inf`, `infinity`,
/// `nan` (any case). Text that does not start with a number reads as 0.
pub fn parse_f(s: &[u8]) -> f64 {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let start = i;
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let rest = &s[i..];
    let word = |w: &[u8]| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w);
    if word(b"inf") {
        return if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    if word(b"nan") {
        return if neg { -f64::NAN } else { f64::NAN };
    }
    let digits = |mut j: usize| {
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let int_end = digits(i);
    let mut end = int_end;
    let mut any = int_end > i;
    if end < s.len() && s[end] == b'.' {
        let frac_end = digits(end + 1);
        any |= frac_end > end + 1;
        end = frac_end;
    }
    if !any {
        return 0.0;
    }
    if end < s.len() && (s[end] == b'e' || s[end] == b'E') {
        let mut j = end + 1;
        if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
            j += 1;
        }
        let exp_end = digits(j);
        if exp_end > j {
            end = exp_end;
        }
    }
    core::str::from_utf8(&s[start..end])
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(0.0)
}
