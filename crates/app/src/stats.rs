//! Statistics of repeated measurements (times, speeds, ratios) that the commands report.

/// The median of `values`: the middle value, or the mean of the two middle values for an
/// even count; 0 for none.
#[must_use]
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut s = values.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// The index of the measurement that stands for the median, where it must be one of them (a
/// run whose figures are broken down further): the middle one, the upper of the two middle
/// ones for an even count. `None` for none.
#[must_use]
pub fn median_index(values: &[f64]) -> Option<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    order.get(values.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_lists() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[5.0]), 5.0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn the_median_index_is_a_middle_measurement() {
        assert_eq!(median_index(&[]), None);
        assert_eq!(median_index(&[3.0, 1.0, 2.0]), Some(2));
        assert_eq!(median_index(&[4.0, 1.0, 2.0, 3.0]), Some(3));
    }
}
