//! How fast each projection's checkpoint moves and when it should be current again, for
//! `/metrics`: a projection added or changed is caught up by the running projector from its
//! first event, and an operator watches `companion_projection_events_per_second` and
//! `companion_projection_seconds_left` to know when.

use std::time::{Duration, Instant};

/// The events-per-second average follows about this much of the recent past.
const WINDOW: Duration = Duration::from_secs(10);

/// One projection's speed, from its count of applied events sampled now and then.
#[derive(Debug, Default, Clone, Copy)]
pub struct Speed {
    last: Option<(Instant, u64)>,
    per_second: f64,
}

impl Speed {
    /// Takes the projection's count of applied events at `now`; returns the events per second
    /// averaged over about [`WINDOW`] (0 until a second sample).
    pub fn sample(&mut self, applied: u64, now: Instant) -> f64 {
        if let Some((then, before)) = self.last {
            let elapsed = now.saturating_duration_since(then).as_secs_f64();
            if elapsed > 0.0 {
                let recent = applied.saturating_sub(before) as f64 / elapsed;
                // An exponential average weighted by the time since the last sample, so that
                // irregular samples count for what they cover.
                let weight = 1.0 - (-elapsed / WINDOW.as_secs_f64()).exp();
                self.per_second += weight * (recent - self.per_second);
            }
        }
        self.last = Some((now, applied));
        self.per_second
    }
}

/// Seconds until `behind` events are applied at `per_second`: 0 when current, infinite while
/// nothing moves.
pub fn seconds_left(behind: i64, per_second: f64) -> f64 {
    if behind <= 0 {
        0.0
    } else if per_second > 0.0 {
        behind as f64 / per_second
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_speed_follows_the_recent_rate_and_the_estimate_follows_the_speed() {
        let start = Instant::now();
        let mut speed = Speed::default();
        assert_eq!(speed.sample(0, start), 0.0, "one sample tells no speed");
        // 1,000 events a second for a minute: the average reaches it.
        let mut rate = 0.0;
        for s in 1..=60u64 {
            rate = speed.sample(s * 1_000, start + Duration::from_secs(s));
        }
        assert!((rate - 1_000.0).abs() < 5.0, "{rate}");
        assert_eq!(
            seconds_left(50_000, rate).round(),
            (50_000.0 / rate).round()
        );
        // Stopped for a minute: the speed falls to nothing and the estimate grows without end.
        for s in 61..=120u64 {
            rate = speed.sample(60_000, start + Duration::from_secs(s));
        }
        assert!(rate < 5.0, "{rate}");
        assert!(seconds_left(50_000, 0.0).is_infinite());
        assert_eq!(seconds_left(0, 0.0), 0.0, "current: nothing left");
        // A sample at the same instant changes nothing.
        let again = speed.sample(60_000, start + Duration::from_secs(120));
        assert_eq!(again, rate);
    }
}
