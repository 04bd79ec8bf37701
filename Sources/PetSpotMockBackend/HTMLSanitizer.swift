/// What the production backend does to free-text fields: the `xss` library (js-xss) with an
/// empty whitelist, `stripIgnoreTag: true` and `stripIgnoreTagBody: ["script", "style"]`.
///
/// Reproduced step by step on UTF-16 code units, as JavaScript sees the string:
/// 1. HTML comments `<!-- ... -->` are removed (an unclosed one removes the rest).
/// 2. The tag scanner: `<` opens a tag, the next `>` outside a quoted attribute value closes it,
///    and every tag is dropped; a second `<` inside an open tag turns the text so far into plain
///    text; reaching the last character with a tag open drops it to the end.
/// 3. Text between tags has `<` and `>` escaped as `&lt;` and `&gt;` (so a stray `>` becomes
///    `&gt;`).
/// 4. From an opening `<script>`/`<style>` to its closing tag everything is removed; an unclosed
///    one leaves js-xss's `[removed]` marker in place of the tag, as js-xss does.
enum HTMLSanitizer {
    /// The sanitised text.
    static func sanitize(_ text: String) -> String {
        let units = Array(text.utf16)
        // Fast path: nothing that could be markup.
        if !units.contains(where: { $0 == 0x3C || $0 == 0x3E }) { return text }
        let withoutComments = stripComments(units)
        return String(decoding: filterTags(withoutComments), as: UTF16.self)
    }

    private static let lessThan: UInt16 = 0x3C
    private static let greaterThan: UInt16 = 0x3E

    private static func stripComments(_ html: [UInt16]) -> [UInt16] {
        let open = Array("<!--".utf16), close = Array("-->".utf16)
        var output: [UInt16] = []
        var last = 0
        while last < html.count {
            guard let start = find(open, in: html, from: last) else {
                output.append(contentsOf: html[last...])
                break
            }
            output.append(contentsOf: html[last..<start])
            guard let end = find(close, in: html, from: start) else { break }
            last = end + close.count
        }
        return output
    }

    private static func find(_ needle: [UInt16], in haystack: [UInt16], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    private static func escape(_ text: ArraySlice<UInt16>, into output: inout [UInt16]) {
        for unit in text {
            switch unit {
            case lessThan: output.append(contentsOf: "&lt;".utf16)
            case greaterThan: output.append(contentsOf: "&gt;".utf16)
            default: output.append(unit)
            }
        }
    }

    /// js-xss `parseTag` with the strip-all and strip-body handlers, then `remove`.
    private static func filterTags(_ html: [UInt16]) -> [UInt16] {
        var output: [UInt16] = []
        var tagStart: Int? = nil
        var quoteStart: UInt16? = nil
        var lastPosition = 0
        var removeRanges: [(Int, Int)] = []
        var bodyStart: Int? = nil
        let length = html.count
        var position = 0
        while position < length {
            defer { position += 1 }
            let unit = html[position]
            guard let start = tagStart else {
                if unit == lessThan { tagStart = position }
                continue
            }
            if let quote = quoteStart {
                if unit == quote { quoteStart = nil }
                continue
            }
            if unit == lessThan {
                escape(html[lastPosition..<position], into: &output)
                tagStart = position
                lastPosition = position
                continue
            }
            if unit == greaterThan || position == length - 1 {
                escape(html[lastPosition..<start], into: &output)
                let tag = html[start...position]
                let name = tagName(tag)
                if name == "script" || name == "style" {
                    let closing = tag.count >= 2 && tag[tag.startIndex + 1] == 0x2F
                    if closing {
                        let marker = Array("[/removed]".utf16)
                        // js-xss tests `posStart !== false`, so a body starting at 0 counts.
                        removeRanges.append((bodyStart ?? output.count, output.count + marker.count))
                        bodyStart = nil
                        output.append(contentsOf: marker)
                    } else {
                        // js-xss tests `!posStart`: position 0 is falsy and gets overwritten.
                        if bodyStart == nil || bodyStart == 0 { bodyStart = output.count }
                        output.append(contentsOf: "[removed]".utf16)
                    }
                }
                lastPosition = position + 1
                tagStart = nil
                continue
            }
            if unit == 0x22 || unit == 0x27 {
                var back = position - 1
                while back >= 0 {
                    let previous = html[back]
                    if previous == 0x3D {
                        quoteStart = unit
                        break
                    }
                    guard JavaScript.isWhitespace(previous) else { break }
                    back -= 1
                }
            }
        }
        if lastPosition < length { escape(html[lastPosition...], into: &output) }
        guard !removeRanges.isEmpty else { return output }
        var result: [UInt16] = []
        var last = 0
        for (from, to) in removeRanges {
            if from > last { result.append(contentsOf: output[last..<min(from, output.count)]) }
            last = to
        }
        if last < output.count { result.append(contentsOf: output[last...]) }
        return result
    }

    /// js-xss `getTagName`: text after `<` up to the first white space (or the end less one
    /// character), trimmed, lower-cased, without a leading or trailing `/`.
    private static func tagName(_ tag: ArraySlice<UInt16>) -> String {
        let inner: ArraySlice<UInt16>
        if let space = tag.firstIndex(where: JavaScript.isWhitespace) {
            inner = tag[(tag.startIndex + 1)..<(space + 1)]
        } else {
            inner = tag.count >= 2 ? tag[(tag.startIndex + 1)..<(tag.endIndex - 1)] : []
        }
        var name = JavaScript.trim(String(decoding: inner, as: UTF16.self)).lowercased()
        if name.hasPrefix("/") { name.removeFirst() }
        if name.hasSuffix("/") { name.removeLast() }
        return name
    }
}
