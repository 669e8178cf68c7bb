/// The locale whose language the user reads messages in, as POSIX resolves it: the first
/// non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`, else "C".
public enum LocaleSetting {
    public static func resolve(environment: (String) -> String?) -> String {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment(name), !value.isEmpty { return value }
        }
        return "C"
    }
}
