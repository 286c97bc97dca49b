"""Words for right-to-left recall (#63), shared by bench/fidelity.py and bench/rtl_truth.py."""
import collections, re, unicodedata

RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def letter_words(text, nfkc=False):
    """The words a search finds: runs of letters, marks and digits (no punctuation, which each tool
    places differently around a right-to-left run), cut where the script's direction changes (a
    tool that drops a bidi control glues "\\ptext" to the Arabic word after it); zero-width
    (non-)joiners left out, as a search ignores them. `nfkc`: presentation forms read as letters."""
    if nfkc:
        text = unicodedata.normalize("NFKC", text)
    out, cur, prev = [], [], None
    for ch in text:
        if ch in "\u200c\u200d":
            continue
        cat = unicodedata.category(ch)
        if cat[0] in "LMN":
            rtl = prev if cat[0] == "M" else bool(RTL.match(ch))
            if cur and prev is not None and rtl != prev:
                out.append("".join(cur))
                cur = []
            cur.append(ch)
            prev = rtl
        elif cur:
            out.append("".join(cur))
            cur, prev = [], None
    if cur:
        out.append("".join(cur))
    return collections.Counter(out)
