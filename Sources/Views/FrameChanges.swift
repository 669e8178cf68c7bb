/// The areas whose frames moved during one layout pass, collected for the incremental repaint.
final class FrameChanges {
    var rects: [Rect] = []

    func record(_ old: Rect, _ new: Rect) {
        rects.append(old)
        rects.append(new)
    }
}
