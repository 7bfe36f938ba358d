/// The version `fakenft --version` prints and the About screen shows.
public enum FakeNFTVersion {
    public static let current = "0.5.0"
}
