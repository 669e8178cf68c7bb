import Testing

/// One golden case: a view, its data and the width it is rendered at.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    let name: String
    let view: String
    var data = "{}"
    var width = 30

    var testDescription: String { name }
}

/// Every case's expected frame lives in `Goldens/<name>.txt`: the plain-text frame, then the
/// styled cells. `UPDATE_GOLDENS=1 swift test --filter ViewsTests` rewrites them, on purpose only.
let goldenCases: [GoldenCase] = [
    // text
    GoldenCase(name: "text-plain", view: ##"{"type": "text", "text": "hello, world"}"##),
    GoldenCase(name: "text-template", view: ##"{"type": "text", "text": "Hi ${user.name}, ${count} new"}"##,
               data: ##"{"user": {"name": "Ada"}, "count": 3}"##),
    GoldenCase(name: "text-missing-data", view: ##"{"type": "text", "text": "[${nothing.here}]"}"##),
    GoldenCase(name: "text-wrap-words", view: ##"{"type": "text", "text": "the quick brown fox jumps over the lazy dog"}"##, width: 12),
    GoldenCase(name: "text-wrap-long-word", view: ##"{"type": "text", "text": "supercalifragilisticexpialidocious"}"##, width: 10),
    GoldenCase(name: "text-truncate", view: ##"{"type": "text", "text": "the quick brown fox jumps", "style": {"overflow": "truncate"}}"##, width: 12),
    GoldenCase(name: "text-symbol-stays-with-word", view: ##"{"type": "text", "text": "Tab ⇥  Enter ⏎  q to quit"}"##, width: 12),
    GoldenCase(name: "footer-hint-in-44-cells", view: ##"{"type": "box", "style": {"border": "rounded", "padding": [0, 1], "width": 44}, "children": [{"type": "stack", "direction": "row", "gap": 2, "children": [{"type": "button", "id": "add", "text": "Add"}, {"type": "button", "id": "clear", "text": "Clear done"}, {"type": "spacer", "style": {"grow": 1}}, {"type": "text", "text": "Tab ⇥  Enter ⏎  q", "style": {"dim": true}}]}]}"##, width: 44),
    GoldenCase(name: "footer-hint-truncates", view: ##"{"type": "box", "style": {"border": "rounded", "padding": [0, 1], "width": 30}, "children": [{"type": "stack", "direction": "row", "gap": 2, "children": [{"type": "button", "id": "add", "text": "Add"}, {"type": "button", "id": "clear", "text": "Clear done"}, {"type": "spacer", "style": {"grow": 1}}, {"type": "text", "text": "Tab ⇥  Enter ⏎  q", "style": {"dim": true, "overflow": "truncate"}}]}]}"##, width: 30),
    GoldenCase(name: "text-newlines", view: ##"{"type": "text", "text": "one\ntwo\n\nfour"}"##),
    GoldenCase(name: "text-bold-italic-underline", view: ##"{"type": "stack", "children": [{"type": "text", "text": "bold", "style": {"bold": true}}, {"type": "text", "text": "italic", "style": {"italic": true}}, {"type": "text", "text": "underline", "style": {"underline": true}}, {"type": "text", "text": "dim", "style": {"dim": true}}, {"type": "text", "text": "inverse", "style": {"inverse": true}}]}"##),
    GoldenCase(name: "text-colors-named", view: ##"{"type": "stack", "children": [{"type": "text", "text": "red", "style": {"color": "red"}}, {"type": "text", "text": "bright blue on yellow", "style": {"color": "brightBlue", "background": "yellow"}}]}"##),
    GoldenCase(name: "text-colors-256-and-rgb", view: ##"{"type": "stack", "children": [{"type": "text", "text": "index 208", "style": {"color": 208}}, {"type": "text", "text": "hex", "style": {"color": "#ff8800", "background": "#102030"}}, {"type": "text", "text": "short hex", "style": {"color": "#0f0"}}]}"##),
    // CJK and emoji
    GoldenCase(name: "cjk-width", view: ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "text", "text": "中文字符"}]}"##, width: 12),
    GoldenCase(name: "cjk-wrap-between-characters", view: ##"{"type": "text", "text": "日本語のテキストを折り返す"}"##, width: 9),
    GoldenCase(name: "cjk-mixed-latin", view: ##"{"type": "text", "text": "Hello 世界 and 你好 friends"}"##, width: 11),
    GoldenCase(name: "cjk-truncate", view: ##"{"type": "text", "text": "这是一个很长的句子", "style": {"overflow": "truncate"}}"##, width: 8),
    GoldenCase(name: "emoji-width", view: ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "text", "text": "ok 😀 👍🏽 ❤️ 👨‍👩‍👧 end"}]}"##, width: 24),
    GoldenCase(name: "emoji-wrap", view: ##"{"type": "text", "text": "😀😀😀😀😀😀😀"}"##, width: 5),
    GoldenCase(name: "combining-marks", view: ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "text", "text": "cafe\u0301 nai\u0308ve"}]}"##, width: 14),
    GoldenCase(name: "hangul-and-fullwidth", view: ##"{"type": "text", "text": "한국어 ＡＢＣ"}"##, width: 20),
    // scroll containers
    GoldenCase(name: "scroll-node", view: ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "scroll", "style": {"height": 3}, "children": [{"type": "text", "text": "first line"}, {"type": "text", "text": "second line"}, {"type": "text", "text": "third line"}, {"type": "text", "text": "fourth line"}, {"type": "text", "text": "fifth line"}, {"type": "text", "text": "sixth line"}]}]}"##, width: 16),
    // borders
    GoldenCase(name: "border-single", view: ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "text", "text": "single"}]}"##, width: 12),
    GoldenCase(name: "border-double", view: ##"{"type": "box", "style": {"border": "double"}, "children": [{"type": "text", "text": "double"}]}"##, width: 12),
    GoldenCase(name: "border-rounded", view: ##"{"type": "box", "style": {"border": "rounded"}, "children": [{"type": "text", "text": "rounded"}]}"##, width: 12),
    GoldenCase(name: "border-heavy", view: ##"{"type": "box", "style": {"border": "heavy"}, "children": [{"type": "text", "text": "heavy"}]}"##, width: 12),
    GoldenCase(name: "border-none-padding", view: ##"{"type": "box", "style": {"padding": 1, "background": "blue"}, "children": [{"type": "text", "text": "pad"}]}"##, width: 12),
    GoldenCase(name: "border-color", view: ##"{"type": "box", "style": {"border": "rounded", "borderColor": "cyan"}, "children": [{"type": "text", "text": "cyan edge"}]}"##, width: 14),
    GoldenCase(name: "border-empty-box", view: ##"{"type": "box", "style": {"border": "single", "width": 6, "height": 3}}"##),
    GoldenCase(name: "border-tiny-box", view: ##"{"type": "box", "style": {"border": "double", "width": 2, "height": 2}}"##),
    GoldenCase(name: "border-clips-overflowing-text", view: ##"{"type": "box", "style": {"border": "single", "width": 8, "height": 3}, "children": [{"type": "text", "text": "far too long to fit in here", "style": {"width": 20}}]}"##),
    // box model
    GoldenCase(name: "box-padding-four-sides", view: ##"{"type": "box", "style": {"border": "single", "padding": [1, 2, 0, 4]}, "children": [{"type": "text", "text": "x"}]}"##, width: 12),
    GoldenCase(name: "box-margin", view: ##"{"type": "stack", "children": [{"type": "box", "style": {"border": "single", "margin": [1, 3]}, "children": [{"type": "text", "text": "m"}]}, {"type": "text", "text": "after"}]}"##, width: 12),
    GoldenCase(name: "box-fixed-size", view: ##"{"type": "box", "style": {"border": "single", "width": 10, "height": 4}, "children": [{"type": "text", "text": "fixed"}]}"##),
    GoldenCase(name: "box-background-inherited", view: ##"{"type": "box", "style": {"background": "#202060", "color": "white", "padding": [0, 1]}, "children": [{"type": "text", "text": "on blue"}, {"type": "text", "text": "red on blue", "style": {"color": "red"}}]}"##, width: 16),
    // percent and min/max
    GoldenCase(name: "percent-width", view: ##"{"type": "box", "style": {"border": "single", "width": "50%"}, "children": [{"type": "text", "text": "half"}]}"##, width: 30),
    GoldenCase(name: "percent-row-split", view: ##"{"type": "stack", "direction": "row", "children": [{"type": "box", "style": {"border": "single", "width": "25%"}, "children": [{"type": "text", "text": "a"}]}, {"type": "box", "style": {"border": "single", "width": "75%"}, "children": [{"type": "text", "text": "b"}]}]}"##, width: 40),
    GoldenCase(name: "percent-nested", view: ##"{"type": "box", "style": {"border": "single", "width": "80%"}, "children": [{"type": "box", "style": {"border": "double", "width": "50%"}, "children": [{"type": "text", "text": "in"}]}]}"##, width: 40),
    GoldenCase(name: "min-width", view: ##"{"type": "stack", "direction": "row", "children": [{"type": "box", "style": {"border": "single", "minWidth": 12}, "children": [{"type": "text", "text": "min"}]}]}"##),
    GoldenCase(name: "max-width-wraps", view: ##"{"type": "box", "style": {"border": "single", "maxWidth": 12}, "children": [{"type": "text", "text": "wraps inside a narrow box"}]}"##, width: 30),
    GoldenCase(name: "max-height-clips", view: ##"{"type": "box", "style": {"border": "single", "maxHeight": 4}, "children": [{"type": "text", "text": "1"}, {"type": "text", "text": "2"}, {"type": "text", "text": "3"}, {"type": "text", "text": "4"}]}"##, width: 10),
    // stacks: direction, gap, grow, shrink, basis, align, justify
    GoldenCase(name: "stack-column-gap", view: ##"{"type": "stack", "gap": 1, "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "text", "text": "c"}]}"##),
    GoldenCase(name: "stack-row-gap", view: ##"{"type": "stack", "direction": "row", "gap": 2, "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "text", "text": "c"}]}"##),
    GoldenCase(name: "stack-row-grow", view: ##"{"type": "stack", "direction": "row", "children": [{"type": "box", "style": {"border": "single", "grow": 1}, "children": [{"type": "text", "text": "1"}]}, {"type": "box", "style": {"border": "single", "grow": 2}, "children": [{"type": "text", "text": "2"}]}]}"##),
    GoldenCase(name: "stack-row-shrink", view: ##"{"type": "stack", "direction": "row", "children": [{"type": "box", "style": {"border": "single", "width": 20}, "children": [{"type": "text", "text": "shrinks"}]}, {"type": "box", "style": {"border": "single", "width": 20, "shrink": 0}, "children": [{"type": "text", "text": "stays"}]}]}"##),
    GoldenCase(name: "stack-row-basis", view: ##"{"type": "stack", "direction": "row", "children": [{"type": "box", "style": {"border": "single", "basis": 10}, "children": [{"type": "text", "text": "b10"}]}, {"type": "box", "style": {"border": "single", "basis": 6, "grow": 1}, "children": [{"type": "text", "text": "grows"}]}]}"##),
    GoldenCase(name: "stack-justify-center", view: ##"{"type": "stack", "direction": "row", "justify": "center", "children": [{"type": "text", "text": "mid"}]}"##, width: 11),
    GoldenCase(name: "stack-justify-end", view: ##"{"type": "stack", "direction": "row", "justify": "end", "children": [{"type": "text", "text": "end"}]}"##, width: 11),
    GoldenCase(name: "stack-justify-space-between", view: ##"{"type": "stack", "direction": "row", "justify": "space-between", "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "text", "text": "c"}]}"##, width: 11),
    GoldenCase(name: "stack-justify-space-around", view: ##"{"type": "stack", "direction": "row", "justify": "space-around", "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}"##, width: 12),
    GoldenCase(name: "stack-justify-space-evenly", view: ##"{"type": "stack", "direction": "row", "justify": "space-evenly", "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}"##, width: 11),
    GoldenCase(name: "stack-align-center", view: ##"{"type": "stack", "align": "center", "children": [{"type": "box", "style": {"border": "single"}, "children": [{"type": "text", "text": "c"}]}]}"##, width: 15),
    GoldenCase(name: "stack-align-end", view: ##"{"type": "stack", "align": "end", "children": [{"type": "text", "text": "right"}]}"##, width: 15),
    GoldenCase(name: "stack-align-self", view: ##"{"type": "stack", "direction": "row", "style": {"height": 3}, "children": [{"type": "text", "text": "top"}, {"type": "text", "text": "mid", "style": {"alignSelf": "center"}}, {"type": "text", "text": "bot", "style": {"alignSelf": "end"}}]}"##, width: 15),
    GoldenCase(name: "stack-nested", view: ##"{"type": "stack", "direction": "row", "gap": 1, "children": [{"type": "box", "style": {"border": "rounded", "grow": 1}, "children": [{"type": "stack", "children": [{"type": "text", "text": "left 1"}, {"type": "text", "text": "left 2"}]}]}, {"type": "box", "style": {"border": "rounded", "grow": 1}, "children": [{"type": "stack", "direction": "row", "justify": "space-between", "children": [{"type": "text", "text": "r1"}, {"type": "text", "text": "r2"}]}]}]}"##, width: 32),
    GoldenCase(name: "stack-deeply-nested", view: ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "box", "style": {"border": "double"}, "children": [{"type": "box", "style": {"border": "rounded"}, "children": [{"type": "box", "style": {"border": "heavy"}, "children": [{"type": "text", "text": "core"}]}]}]}]}"##, width: 16),
    GoldenCase(name: "stack-row-wrapping-text", view: ##"{"type": "stack", "direction": "row", "gap": 1, "children": [{"type": "text", "text": "label:"}, {"type": "text", "text": "a longer value that has to wrap", "style": {"grow": 1, "shrink": 1}}]}"##, width: 20),
    // buttons, inputs, dividers, spacers
    GoldenCase(name: "button", view: ##"{"type": "button", "id": "ok", "text": "OK", "on": {"press": "app.ok"}}"##),
    GoldenCase(name: "button-bordered", view: ##"{"type": "button", "text": "Save", "style": {"border": "rounded", "padding": [0, 1]}}"##, width: 10),
    GoldenCase(name: "button-row", view: ##"{"type": "stack", "direction": "row", "gap": 1, "children": [{"type": "button", "text": "Yes"}, {"type": "button", "text": "No", "style": {"color": "red"}}]}"##),
    GoldenCase(name: "input-placeholder", view: ##"{"type": "input", "placeholder": "type here", "style": {"width": 16}}"##),
    GoldenCase(name: "input-value", view: ##"{"type": "input", "value": "${draft}", "style": {"width": 16}}"##, data: ##"{"draft": "buy milk"}"##),
    GoldenCase(name: "divider-horizontal", view: ##"{"type": "stack", "children": [{"type": "text", "text": "above"}, {"type": "divider"}, {"type": "text", "text": "below"}]}"##, width: 12),
    GoldenCase(name: "divider-vertical", view: ##"{"type": "stack", "direction": "row", "gap": 1, "style": {"height": 3}, "children": [{"type": "text", "text": "left"}, {"type": "divider"}, {"type": "text", "text": "right"}]}"##, width: 16),
    GoldenCase(name: "spacer-pushes-apart", view: ##"{"type": "stack", "direction": "row", "children": [{"type": "text", "text": "left"}, {"type": "spacer", "style": {"grow": 1}}, {"type": "text", "text": "right"}]}"##, width: 20),
    // lists
    GoldenCase(name: "list-items", view: ##"{"type": "list", "items": "${tasks}", "key": "id", "template": {"type": "text", "text": "- ${title}"}}"##,
               data: ##"{"tasks": [{"id": 1, "title": "milk"}, {"id": 2, "title": "eggs"}, {"id": 3, "title": "bread"}]}"##),
    GoldenCase(name: "list-empty", view: ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "text", "text": "tasks:"}, {"type": "list", "items": "${tasks}", "template": {"type": "text", "text": "${title}"}}]}"##, data: ##"{"tasks": []}"##, width: 12),
    GoldenCase(name: "list-row-template", view: ##"{"type": "list", "items": "${tasks}", "key": "id", "template": {"type": "stack", "direction": "row", "gap": 1, "children": [{"type": "button", "id": "done-${id}", "text": "${mark}"}, {"type": "text", "text": "${title}", "style": {"grow": 1}}, {"type": "text", "text": "${due}", "style": {"dim": true}}]}}"##,
               data: ##"{"tasks": [{"id": "a", "title": "write report", "mark": "x", "due": "Mon"}, {"id": "b", "title": "call 妈妈", "mark": " ", "due": "Tue"}]}"##, width: 34),
    GoldenCase(name: "list-of-strings", view: ##"{"type": "list", "items": "${names}", "gap": 1, "template": {"type": "text", "text": "* ${.}"}}"##, data: ##"{"names": ["Ada", "Grace", "Barbara"]}"##),
    GoldenCase(name: "list-row-direction", view: ##"{"type": "list", "direction": "row", "gap": 1, "items": "${tags}", "template": {"type": "text", "text": "#${.}", "style": {"color": "green"}}}"##, data: ##"{"tags": ["home", "work", "urgent"]}"##),
    GoldenCase(name: "list-outer-scope", view: ##"{"type": "list", "items": "${tasks}", "template": {"type": "text", "text": "${owner}: ${title}"}}"##, data: ##"{"owner": "Ada", "tasks": [{"title": "milk"}, {"title": "eggs", "owner": "Bob"}]}"##),
    // fallback and a whole screen
    GoldenCase(name: "fallback-replaces-unknown-type", view: ##"{"type": "stack", "children": [{"type": "chart", "series": [1, 2], "fallback": {"type": "text", "text": "(chart unavailable)"}}, {"type": "text", "text": "after"}]}"##),
    GoldenCase(name: "spec-example", view: ##"{"type": "box", "style": {"border": "rounded", "padding": [0, 1], "width": 40}, "children": [{"type": "text", "text": "${user.name}", "style": {"bold": true}}, {"type": "list", "items": "${tasks}", "template": {"type": "text", "text": "- ${title}"}}, {"type": "button", "id": "add", "text": "Add", "on": {"press": "tasks.add"}}]}"##,
               data: ##"{"user": {"name": "Ada Lovelace"}, "tasks": [{"title": "milk"}, {"title": "eggs"}]}"##, width: 44),
    GoldenCase(name: "dashboard", view: ##"{"type": "box", "style": {"border": "double", "padding": [0, 1]}, "children": [{"type": "stack", "direction": "row", "children": [{"type": "text", "text": "Tasks", "style": {"bold": true, "color": "cyan"}}, {"type": "spacer", "style": {"grow": 1}}, {"type": "text", "text": "${done}/${total} done", "style": {"dim": true}}]}, {"type": "divider"}, {"type": "stack", "direction": "row", "gap": 1, "children": [{"type": "box", "style": {"border": "single", "width": "50%"}, "children": [{"type": "list", "items": "${today}", "template": {"type": "text", "text": "• ${.}", "style": {"overflow": "truncate"}}}]}, {"type": "box", "style": {"border": "single", "grow": 1}, "children": [{"type": "text", "text": "${note}"}]}]}, {"type": "stack", "direction": "row", "gap": 2, "justify": "end", "children": [{"type": "button", "text": "Add"}, {"type": "button", "text": "Quit"}]}]}"##,
               data: ##"{"done": 3, "total": 7, "today": ["groceries for the week", "写报告", "call 🎂 Mum"], "note": "Remember: the 会议 moved to Thursday 🗓️ afternoon."}"##, width: 50),
]
