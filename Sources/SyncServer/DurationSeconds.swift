extension Duration {
    /// In seconds, as metrics and JSON bodies give a duration.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
