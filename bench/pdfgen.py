"""A PDF from its objects, for the benchmarks' generated fixtures: object i+1 is objects[i] (text,
written as UTF-8), a classic cross-reference table, object 1 the catalog."""


def pdf(objects):
    out = b"%PDF-1.7\n"
    offsets = []
    for i, o in enumerate(objects):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + o.encode("utf-8") + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out
