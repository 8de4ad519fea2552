#!/usr/bin/env python3
"""Writes one large synthetic page for memory and speed measurements of huge inputs.

`<div><p>` paragraphs of 100 to 300 German words, each with a link at its end, until the page holds SIZE
megabytes (default 50). Deterministic: the same bytes on every run.

    python3 scripts/big_page.py /tmp/big.html [SIZE_MB]
    /usr/bin/time -v target/release/victor label --format text -j 1 --out /tmp/big-out /tmp/big.html
"""
import random
import sys

WORDS = (
    "der die das und ist nicht ein eine mit von auf für sich dem den des im zu es auch als "
    "Straße Größe Mädchen über Bundesregierung Wirtschaft Entwicklung Zeitung Bericht Stadt "
    "Gemeinde Haushalt Schule Universität Forschung Ergebnis Öffentlichkeit Verkehr Wetter"
).split()


def main() -> None:
    out = sys.argv[1]
    size = int(float(sys.argv[2]) * 1_000_000) if len(sys.argv) > 2 else 50_000_000
    rng = random.Random(63)
    written = 0
    with open(out, "w", encoding="utf-8") as f:
        head = "<!doctype html><html><head><meta charset=utf-8><title>Ein großer Bericht</title></head><body>\n"
        f.write(head)
        written += len(head.encode())
        k = 0
        while written < size:
            words = [rng.choice(WORDS) for _ in range(rng.randint(100, 300))]
            link = f'<a href="/seite/{k}">weiterlesen</a>'
            para = f'<div class="abschnitt"><p>{" ".join(words)}. {link}</p></div>\n'
            f.write(para)
            written += len(para.encode())
            k += 1
        f.write("</body></html>\n")


if __name__ == "__main__":
    main()
