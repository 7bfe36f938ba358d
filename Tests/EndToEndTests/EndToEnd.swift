import Testing

/// Every end-to-end suite, its tests run one at a time: each drives the real binary in terminals
/// of its own (tmux, xterm) against servers it starts, and waits on what they show on the wall
/// clock; several at once on two cores made one another's waits run out (nine apps in tmux at
/// once upset the timing of the rest). The in-process tests run beside them.
@Suite(.serialized) enum EndToEnd {}
