import CJavaScriptCore

/// A JavaScript value as native code holds it between engine calls: JavaScriptCore's own
/// reference, named here so that the layers above the engine never import the C module.
/// Valid only on the JS thread, and only while something in JS keeps it alive.
public typealias ScriptValue = JSValueRef

/// A JavaScript object (a function, say) held by native code: see ``ScriptValue``.
public typealias ScriptObject = JSObjectRef

extension ScriptContext {
    /// `Number(value)`, never throwing (a symbol or a throwing `valueOf` gives NaN).
    public func numberValue(_ value: ScriptValue) -> Double { JSValueToNumber(ref, value, nil) }

    /// Whether `value` is a number primitive.
    public func isNumber(_ value: ScriptValue) -> Bool { JSValueGetType(ref, value) == kJSTypeNumber }

    /// Whether `value` is `undefined` or `null`.
    public func isNullish(_ value: ScriptValue) -> Bool {
        let type = JSValueGetType(ref, value)
        return type == kJSTypeUndefined || type == kJSTypeNull
    }
}
