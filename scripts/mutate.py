#!/usr/bin/env python3
"""Writes N mutated copies of the samples (a dumb, seeded mutation fuzzer): byte flips, runs of
random bytes, deleted or duplicated ranges, truncations, and swapped PDF tokens. The same seed
gives the same files. Usage: mutate.py SAMPLES_DIR OUT_DIR N [SEED]"""
import os, random, sys

TOKENS = [b"obj", b"endobj", b"stream", b"endstream", b"R", b"<<", b">>", b"[", b"]", b"/Kids", b"/Parent",
          b"/Count", b"/Names", b"/Dests", b"/Limits", b"/Next", b"/First", b"/Last", b"/Annots", b"/Rect",
          b"/Dest", b"/D", b"/A", b"/S", b"/URI", b"/F", b"xref", b"trailer", b"startxref", b"/Length",
          b"/Filter", b"/FlateDecode", b"/DecodeParms", b"/Predictor", b"/ObjStm", b"/XRef", b"/W", b"/Index",
          b"-1", b"0", b"99999999999", b"1e308", b"()", b"<>", b"null", b"%%EOF"]

def mutate(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not b:
            break
        op = rng.choices(range(6), weights=[30, 15, 15, 15, 0, 25])[0]
        i = rng.randrange(len(b))
        if op == 0:
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op == 2:
            del b[i:i + rng.randint(1, 64)]
        elif op == 3:
            j = rng.randrange(len(b))
            b[i:i] = b[j:j + rng.randint(1, 256)]
        elif op == 4:
            del b[rng.randint(len(b) // 2, len(b)):]
        else:
            t = rng.choice(TOKENS)
            k = b.find(rng.choice(TOKENS), i)
            if k >= 0:
                b[k:k + 1] = t
    if b and rng.random() < 0.05:  # truncation: rare, or most files would lose their trailer
        del b[rng.randint(len(b) // 2, len(b)):]
    return bytes(b)

def main():
    src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    samples = sorted(f for f in os.listdir(src) if f.endswith(".pdf") and os.path.getsize(os.path.join(src, f)) > 0)
    os.makedirs(out, exist_ok=True)
    for k in range(n):
        name = samples[k % len(samples)]
        data = open(os.path.join(src, name), "rb").read()
        with open(os.path.join(out, f"{k:05d}-{name}"), "wb") as f:
            f.write(mutate(data, rng))

main()
