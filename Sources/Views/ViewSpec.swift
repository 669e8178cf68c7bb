import JSON

/// A decoded, checked view node before data is applied: templates still unresolved, lists not yet
/// expanded. `ViewDecoder` builds it; `ViewExpander` turns it into a ``ViewNode`` tree per data.
public struct ViewSpec: Sendable {
    public var kind: ViewKind
    /// `id`, which may hold templates (`"done-${id}"` inside a list).
    public var id: TemplateString?
    public var style: ViewStyle
    /// `text` of text, button and input (its value), with `${path}` templates.
    public var text: TemplateString?
    public var placeholder: TemplateString?
    /// An input's most grapheme clusters, and whether it shows `•` for each.
    public var maxLength: Int?
    public var secret = false
    public var children: [ViewSpec]
    /// `on`: event name → JS handler name (`{"press": "tasks.add"}`).
    public var handlers: [String: String]
    /// A list's `items` template, which must resolve to an array.
    public var items: TemplateString?
    /// A list's per-item template.
    public var template: [ViewSpec]
    /// A list's key field: items are identified by `item[key]` rather than their index.
    public var key: String?
    /// Where the node is in the view JSON, for errors found while expanding.
    public var pointer: String

    init(kind: ViewKind, pointer: String) {
        self.kind = kind
        self.pointer = pointer
        style = ViewStyle()
        children = []
        handlers = [:]
        template = []
    }
}
