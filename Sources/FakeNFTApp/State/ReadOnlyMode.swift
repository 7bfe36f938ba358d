/// `fakenft --read-only` (config `read_only`): a demo or a shared screen where nothing can be
/// changed. Every action that would change data on the server is absent: its keys (so the help
/// and the footer), and the buttons that press them (heart, cart, ✕, Pay, edit). Set once, at start.
@MainActor
public enum ReadOnlyMode {
    public static var isOn = false
}
