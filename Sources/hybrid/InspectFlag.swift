/// `--inspect` and `--inspect-brk` take their port as node's do, only after `=`: alone, they
/// mean any free port. ArgumentParser has no option whose value may be left out, so a bare one
/// is spelled `--inspect=0` before parsing (not past `--`, where the app's own arguments are).
enum InspectFlag {
    static func spelled(_ arguments: [String]) -> [String] {
        var spelled: [String] = []
        var terminated = false
        for argument in arguments {
            if argument == "--" { terminated = true }
            if !terminated, argument == "--inspect" || argument == "--inspect-brk" {
                spelled.append(argument + "=0")
            } else {
                spelled.append(argument)
            }
        }
        return spelled
    }
}
