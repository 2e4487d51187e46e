"""``is_blank`` answers ``trim_space(s) == ""`` for every string (the config sniff relies on it
to skip building a trimmed copy of a whole payload)."""

from hypothesis import given, strategies as st

from cavemem.formats.configs import classify_strict
from cavemem.gocompat import GO_SPACE, is_blank, trim_space

# Go's spaces, characters Python alone calls space (\x1c, \u200b is neither), and letters
_ALPHABET = st.sampled_from(list(GO_SPACE) + ["a", "Z", "\x1c", "\x1f", "\u200b", "\ufeff", "é"])


@given(st.lists(_ALPHABET, max_size=12).map("".join))
def test_is_blank_agrees_with_trim_space(s):
    assert is_blank(s) == (trim_space(s) == "")


def test_a_blank_payload_is_no_config():
    assert classify_strict(" \n\t\u3000\n".encode()) is None
    assert classify_strict(b"") is None
