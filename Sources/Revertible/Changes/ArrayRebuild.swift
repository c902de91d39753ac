/// Rewrites the part of `array` that a structural change touches, in place.
///
/// Removes the elements at `removing` (ascending indices into `array`) and places `placing`
/// (ascending indices into the result); every other element keeps its relative order. Only
/// the span between the first and last touched index is rebuilt, so a change near the end of
/// a long array does not copy its beginning.
func rebuild<Element>(_ array: inout [Element], removing: [Int], placing: [(index: Int, element: Element)]) {
    let targetCount = array.count - removing.count + placing.count
    let low = min(removing.first ?? array.count, placing.first?.index ?? targetCount)
    let untouchedTail = min(
        array.count - 1 - (removing.last ?? (low - 1)),
        targetCount - 1 - (placing.last?.index ?? (low - 1))
    )
    let currentEnd = array.count - untouchedTail
    let targetEnd = targetCount - untouchedTail

    var span: [Element] = []
    span.reserveCapacity(targetEnd - low)
    var nextRemoved = 0
    var nextPlaced = 0
    var source = low
    for target in low..<targetEnd {
        if nextPlaced < placing.count, placing[nextPlaced].index == target {
            span.append(placing[nextPlaced].element)
            nextPlaced += 1
            continue
        }
        while nextRemoved < removing.count, removing[nextRemoved] == source {
            nextRemoved += 1
            source += 1
        }
        span.append(array[source])
        source += 1
    }
    array.replaceSubrange(low..<currentEnd, with: span)
}
