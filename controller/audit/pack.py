"""The retention pack: what a promoter keeps for three years (CPA regulation 11).

One folder (or .zip) with a PDF per promotion the log holds, the CSV and JSON trail
(`verify.export`), every signature image the events name (signatures/<sha256>.png), the signed
checkpoints and their public key when there are any, a README saying what it is and how long
to keep it, and a MANIFEST of every file's SHA-256 with the chain head. It is the one way
signatures and personal information leave the controller.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import zipfile
from pathlib import Path

from controller.audit.document import PROMOTIONS, Period
from controller.audit.report import branding, record_of, render
from controller.audit.verify import export, signatures_of
from controller.store.log import StoredLog

README = """Showrunner retention pack
=========================

What: the record of the promotions in one Showrunner event log ({db}), made {made}:
  reports/<promotion>.pdf   the record for the auditor, one per promotion (rules in force,
                            who conducted it, results, draws, prizes, signatures, refunds,
                            voids, disputes, certifications, the chain head)
  events.csv / events.json  the audit trail of events (draws, claims, redraws, entries, scores)
  draws.csv / draws.json    one row per draw with its outcome
  signatures/<sha256>.png   every signature image the log's events name, by its SHA-256
  checkpoints/              the signed checkpoints of the log and their public key, if kept
  MANIFEST.txt              every file's SHA-256 and the log's chain head

Keep this pack for at least three years (Consumer Protection Act, regulation 11: the
competition's rules, who conducted it and the full list of winners), with the event log itself.
It holds personal information (signatures, identity document digits, contact details): keep it
where only the promoter's compliance officer and the auditor can read it.

Check it: `grep -v '^#' MANIFEST.txt | sha256sum -c` checks every file's hash, and
`showrunner-controller audit verify --db SHOW.db --checkpoint checkpoints/<file>` on the log
must end at the event and hash MANIFEST.txt names.
"""


def write_pack(log: StoredLog, out: Path, now_ms: int, made: str,
               checkpoints: Path | None, public_key: Path | None) -> list[str]:
    """Write the pack to `out` (a directory, or a .zip when the name ends so); the files."""
    if out.suffix == ".zip":
        with tempfile.TemporaryDirectory() as tmp:
            files = _fill(log, Path(tmp), now_ms, made, checkpoints, public_key)
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
                for name in files:
                    archive.write(Path(tmp) / name, name)
        return files
    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty; give a new directory or a .zip name.")
    return _fill(log, out, now_ms, made, checkpoints, public_key)


def _fill(log: StoredLog, folder: Path, now_ms: int, made: str, checkpoints: Path | None,
          public_key: Path | None) -> list[str]:
    events = list(log.read())
    export(events, folder)
    reports = folder / "reports"
    reports.mkdir()
    for promotion in PROMOTIONS:
        record = record_of(log, promotion, Period(), now_ms, checkpoints, public_key)
        if record.events:
            (reports / f"{promotion}.pdf").write_bytes(render(record, branding()))
    images = folder / "signatures"
    images.mkdir()
    for stored in events:
        for sha in signatures_of(stored.data):
            image = log.signature_image(sha)
            if image is not None:
                (images / f"{sha}.png").write_bytes(image)
    if checkpoints is not None and checkpoints.is_file():
        (folder / "checkpoints").mkdir()
        shutil.copyfile(checkpoints, folder / "checkpoints" / checkpoints.name)
        if public_key is not None and public_key.is_file():
            shutil.copyfile(public_key, folder / "checkpoints" / public_key.name)
    (folder / "README.txt").write_text(README.format(db=log.path.name, made=made),
                                       encoding="utf-8")
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    lines = [f"# chain head: event {log.last_seq}, hash {log.last_hash}",
             f"# log {log.path.name}, pack made {made}"]
    lines += [f"{hashlib.sha256((folder / name).read_bytes()).hexdigest()}  {name}"
              for name in files]
    (folder / "MANIFEST.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [*files, "MANIFEST.txt"]
