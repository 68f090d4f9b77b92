//! Helpers shared by the integration tests.

/// Asserts that `svg` is one `<svg>` element whose tags are properly nested, and returns the
/// number of elements in it.
pub fn assert_well_formed_svg(svg: &str) -> usize {
    let trimmed = svg.trim();
    assert!(trimmed.starts_with("<svg"), "does not start with <svg");
    assert!(trimmed.ends_with("</svg>"), "does not end with </svg>");
    let mut stack: Vec<&str> = Vec::new();
    let mut elements = 0;
    let mut rest = trimmed;
    while let Some(open) = rest.find('<') {
        let close = rest[open..]
            .find('>')
            .map(|c| open + c)
            .expect("unterminated tag");
        let tag = &rest[open + 1..close];
        assert!(!tag.contains('<'), "'<' inside a tag: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack.pop().unwrap_or_else(|| panic!("unmatched </{name}>"));
            assert_eq!(top, name.trim(), "</{name}> closes <{top}>");
        } else {
            elements += 1;
            let name = tag
                .split(|c: char| c.is_whitespace() || c == '/')
                .next()
                .unwrap_or("");
            assert!(!name.is_empty(), "empty tag name");
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        // Nothing but one root element.
        if stack.is_empty() {
            assert!(rest[close + 1..].trim().is_empty(), "content after </svg>");
        }
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "unclosed tags: {stack:?}");
    // Text between tags must not hold a raw '&' that is not an entity.
    for (i, _) in trimmed.match_indices('&') {
        let entity = &trimmed[i..trimmed.len().min(i + 8)];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"]
                .iter()
                .any(|e| entity.starts_with(e)),
            "raw '&' at {i}: {entity}"
        );
    }
    elements
}
