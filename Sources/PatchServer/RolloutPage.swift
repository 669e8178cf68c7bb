import PatchProtocol

/// The rollout page (`GET /`): each app's patches with their rollout, state and funnel, and a
/// chart of confirmations and rollbacks over time, as one server-rendered HTML page with inline
/// CSS and SVG (no script, no front-end build). ``signIn(_:)`` is the page a browser gets without
/// a publisher's token: a form that posts one to `/login`, which keeps it in a cookie.
///
/// ```swift
/// let html = RolloutPage.render([RolloutPage.App(name: "demo", patches: [...])], subject: "alice", now: PatchClock.now())
/// ```
enum RolloutPage {
    struct Patch {
        var release: PatchRelease
        var funnel: PatchFunnel
        var timeline: [PatchTimelineMinute]
    }

    struct App {
        var name: String
        var patches: [Patch]
    }

    static func render(_ apps: [App], subject: String, now: Double) -> String {
        var body = "<header><h1>Patch rollouts</h1><p>Signed in as <b>\(escape(subject))</b> · \(escape(PatchClock.format(now)))</p></header>\n"
        if apps.isEmpty { body += "<p class=\"empty\">No apps: the token grants publish:APP for none with keys on this server.</p>\n" }
        for app in apps {
            body += "<section class=\"app\" data-app=\"\(escape(app.name))\"><h2>\(escape(app.name))</h2>\n"
            if app.patches.isEmpty { body += "<p class=\"empty\">No patches published.</p>\n" }
            for patch in app.patches { body += render(patch, now: now) }
            body += "</section>\n"
        }
        return document(title: "Patch rollouts", body: body)
    }

    static func render(_ patch: Patch, now: Double) -> String {
        let release = patch.release, funnel = patch.funnel
        var html = "<article class=\"patch \(release.state.rawValue)\" data-patch=\"\(release.patchVersion)\" data-state=\"\(release.state.rawValue)\">\n"
        html += "<h3>Patch \(release.patchVersion) <span class=\"state\">\(release.state.rawValue)</span></h3>\n"
        html += "<p>Base \(escape(release.baseVersion)) · channel \(escape(release.channel)) · halts above \(PatchSchema.percent(release.haltAbove))% of at least \(release.minDevices) devices</p>\n"
        html += "<div class=\"rollout\" title=\"rollout\"><div style=\"width: \(release.rollout)%\"></div><span>\(PatchSchema.percent(release.rollout))% of the channel</span></div>\n"
        html += "<table class=\"funnel\"><tr><th>offered</th><th>downloaded</th><th>applied</th><th>confirmed</th><th>rolled back</th></tr><tr>"
        for (name, count) in [("offered", funnel.offered), ("downloaded", funnel.downloaded), ("applied", funnel.applied),
                              ("confirmed", funnel.confirmed), ("rolledBack", funnel.rolledBack)] {
            html += "<td data-count=\"\(name)\">\(count)</td>"
        }
        html += "</tr></table>\n"
        if let reason = release.haltReason {
            html += "<p class=\"halt\">Halted by \(escape(release.haltedBy ?? "?")): \(escape(reason))</p>\n"
        }
        if !funnel.reasons.isEmpty {
            html += "<ul class=\"reasons\">"
            for (reason, count) in funnel.reasons.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                html += "<li><b>\(count)</b> \(escape(reason))</li>"
            }
            html += "</ul>\n"
        }
        html += chart(patch.timeline, now: now)
        return html + "</article>\n"
    }

    /// Confirmations and rollbacks so far, minute by minute from the first report to now: two
    /// step lines on one time axis.
    static func chart(_ timeline: [PatchTimelineMinute], now: Double) -> String {
        let width = 640.0, height = 160.0, left = 44.0, bottom = 24.0, top = 10.0
        guard let first = timeline.first?.minute, let reported = timeline.last?.minute else {
            return "<p class=\"chart empty\">No confirmations or rollbacks reported yet.</p>\n"
        }
        let last = max(reported, Int(now / 60))
        let span = Double(max(last - first, 1))
        var confirmed = 0, rolledBack = 0
        var points: [(x: Double, confirmed: Int, rolledBack: Int)] = [(0, 0, 0)]
        for minute in timeline {
            confirmed += minute.confirmed
            rolledBack += minute.rolledBack
            points.append((Double(minute.minute - first) / span, confirmed, rolledBack))
        }
        points.append((1, confirmed, rolledBack))
        let highest = Double(max(confirmed, rolledBack, 1))
        func x(_ fraction: Double) -> String { format(left + fraction * (width - left - 8)) }
        func y(_ count: Int) -> String { format(height - bottom - Double(count) / highest * (height - bottom - top)) }
        func line(_ value: (Int, Int) -> Int, _ name: String) -> String {
            var coordinates: [String] = []
            var previous = 0
            for point in points {
                let count = value(point.confirmed, point.rolledBack)
                coordinates.append("\(x(point.x)),\(y(previous))")
                coordinates.append("\(x(point.x)),\(y(count))")
                previous = count
            }
            return "<polyline class=\"\(name)\" points=\"\(coordinates.joined(separator: " "))\"/>"
        }
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(format(width)) \(format(height))\" role=\"img\" "
        svg += "aria-label=\"\(confirmed) confirmations and \(rolledBack) rollbacks over \(last - first + 1) minutes\" "
        svg += "data-confirmed=\"\(confirmed)\" data-rolled-back=\"\(rolledBack)\">\n"
        svg += "<line class=\"axis\" x1=\"\(format(left))\" y1=\"\(y(0))\" x2=\"\(format(width - 8))\" y2=\"\(y(0))\"/>"
        svg += "<line class=\"axis\" x1=\"\(format(left))\" y1=\"\(format(top))\" x2=\"\(format(left))\" y2=\"\(y(0))\"/>\n"
        svg += "<text x=\"\(format(left - 6))\" y=\"\(y(Int(highest)))\" text-anchor=\"end\">\(Int(highest))</text>"
        svg += "<text x=\"\(format(left - 6))\" y=\"\(y(0))\" text-anchor=\"end\">0</text>\n"
        svg += "<text x=\"\(format(left))\" y=\"\(format(height - 6))\">\(escape(PatchClock.format(Double(first * 60))))</text>"
        svg += "<text x=\"\(format(width - 8))\" y=\"\(format(height - 6))\" text-anchor=\"end\">\(escape(PatchClock.format(Double(max(last, first + 1) * 60))))</text>\n"
        svg += line({ confirmed, _ in confirmed }, "confirmed") + line({ _, rolledBack in rolledBack }, "rolled-back") + "\n"
        svg += "<text class=\"confirmed\" x=\"\(format(width - 8))\" y=\"\(format(top + 12))\" text-anchor=\"end\">confirmed \(confirmed)</text>"
        svg += "<text class=\"rolled-back\" x=\"\(format(width - 8))\" y=\"\(format(top + 28))\" text-anchor=\"end\">rolled back \(rolledBack)</text>\n"
        return svg + "</svg>\n"
    }

    /// The page without a token: a form that signs in with one.
    static func signIn(_ problem: String?) -> String {
        var body = "<header><h1>Patch rollouts</h1></header>\n"
        if let problem { body += "<p class=\"halt\">\(escape(problem))</p>\n" }
        body += """
            <form method="post" action="/login"><label>Publisher token (scope publish:APP, from <code>hybrid patch-server token</code>)
            <input name="token" type="password" autocomplete="off" required></label> <button>Sign in</button></form>

            """
        return document(title: "Sign in · Patch rollouts", body: body)
    }

    static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>\(escape(title))</title>
        <style>
        body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 46rem; padding: 0 1rem; color: #1d2125; }
        header p, .patch p { color: #555; margin: .2rem 0; }
        .patch { border: 1px solid #d8dde3; border-radius: 8px; padding: .8rem 1rem; margin: 1rem 0; }
        .patch.halted { border-color: #d97706; } .patch.revoked { border-color: #b91c1c; opacity: .8; }
        .state { font-size: .8rem; text-transform: uppercase; padding: .1rem .4rem; border-radius: 4px; background: #e6f4ea; }
        .halted .state { background: #fde7c8; } .revoked .state { background: #fbd5d5; }
        .rollout { position: relative; height: 1.3rem; background: #eef1f4; border-radius: 4px; margin: .5rem 0; }
        .rollout div { height: 100%; background: #93c5fd; border-radius: 4px; }
        .rollout span { position: absolute; left: .5rem; top: 0; font-size: .85rem; }
        .funnel { border-collapse: collapse; margin: .4rem 0; } .funnel th, .funnel td { padding: .15rem .8rem; text-align: right; }
        .funnel th { font-weight: normal; color: #555; font-size: .85rem; }
        .halt { color: #92400e; } .reasons { margin: .3rem 0; padding-left: 1.2rem; font-size: .9rem; }
        svg.chart { width: 100%; height: auto; } svg.chart text { font-size: 11px; fill: #555; }
        svg .axis { stroke: #aab; } svg polyline { fill: none; stroke-width: 2; }
        svg polyline.confirmed { stroke: #15803d; } svg polyline.rolled-back { stroke: #b91c1c; }
        svg text.confirmed { fill: #15803d; } svg text.rolled-back { fill: #b91c1c; }
        </style></head>
        <body>
        \(body)</body></html>

        """
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
