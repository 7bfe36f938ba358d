import Foundation

/// Requests in flight now, and the most seen at once.
actor InFlightCounter {
    private(set) var current = 0
    private(set) var peak = 0
    private(set) var total = 0
    func enter() {
        current += 1
        total += 1
        peak = max(peak, current)
    }
    func leave() { current -= 1 }
}
