"""Text from a target made fit for an XML or HTML file: the characters XML
1.0 does not allow (what the serial console can carry besides U+FFFE,
U+FFFF, stray surrogates) become U+FFFD, and a text longer than its limit
keeps its start and says how much was cut."""
import re

NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

# The limits, in characters: an attribute (a failure's message), the text
# of one test's diagnostics, and a target's whole log. At four bytes a
# character at most, the log stays under the 10 MB a text node may have
# for libxml2 (xmllint) without its "huge" option.
MESSAGE_CHARS = 1024
DIAGNOSTIC_CHARS = 64 * 1024
LOG_CHARS = 2 * 1024 * 1024


def xml_text(text, limit):
    text = NOT_XML.sub("\ufffd", text)
    if len(text) <= limit:
        return text
    return (text[:limit] + f" [pmctest: {len(text) - limit} more characters "
            "cut here; the target's log has them all]")
