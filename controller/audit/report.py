"""The night's record for the auditor: one PDF per promotion and period (fpdf2).

`report_pdf` reads the log (any `EventLog`: the CLI's, or a read-only one beside a running
controller), folds one promotion's record (controller/audit/record.py, into the document of
controller/audit/document.py) and lays it out in the venue's branding: its logo and colours
(the top-level `assets/`, or $SHOWRUNNER_ASSETS, as the screens read them, docs/branding.md)
and the screens' Inter font, so rand and names render. The last page states the chain head
and the last signed checkpoint, and how to check the PDF against the log with
`showrunner-controller audit verify`.
"""

from __future__ import annotations

import io
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from fpdf import FPDF
from fpdf.fonts import FontFace

from controller.audit.branding import Branding, branding, shipped_assets
from controller.audit.checkpoints import CheckpointError, load_public
from controller.audit.checkpoints import verify as verify_checkpoints
from controller.audit.document import (
    Chain,
    Para,
    Period,
    Record,
    Signature,
    SignatureSheet,
    Table,
)
from controller.audit.record import build_record
from controller.store.log import StoredLog

FONT = "Inter"
CHECK_LINE = ("To check this report against the log, run: showrunner-controller audit verify "
              "--db SHOW.db --checkpoint SHOW.db.checkpoints. It must print OK with the same "
              "last event and hash as above; any edit to an event, an ack, a key or a signature "
              "image since is named there by its event number.")


# -- the chain's end --------------------------------------------------------------------------
def chain_of(log: StoredLog, checkpoints: Path | None, public_key: Path | None) -> Chain:
    """The log's head and a sentence on its last signed checkpoint."""
    if checkpoints is None or not checkpoints.is_file():
        return Chain(log.last_seq, log.last_hash, "No checkpoint file was found beside the log: "
                     "the chain is not anchored outside the database yet.")
    public: Ed25519PublicKey | None = None
    if public_key is not None and public_key.is_file():
        try:
            public = load_public(public_key)
        except CheckpointError as exc:
            return Chain(log.last_seq, log.last_hash, str(exc))
    if public is None:
        return Chain(log.last_seq, log.last_hash, f"Checkpoints are in {checkpoints.name}, but "
                     "no public key was found to check their signatures.")
    anchor, problem = verify_checkpoints(log, checkpoints, public)
    if anchor is None:
        return Chain(log.last_seq, log.last_hash, f"The checkpoints do not hold: {problem}.")
    return Chain(log.last_seq, log.last_hash,
                 f"{anchor.count} signed checkpoints in {checkpoints.name} verify with "
                 f"{public_key.name if public_key else 'the public key'}; the last vouches "
                 f"for events 1-{anchor.seq} (hash {log.hash_at(anchor.seq) or ''}).",
                 anchor.at_ms)


# -- the PDF ----------------------------------------------------------------------------------
class _Pdf(FPDF):
    def __init__(self, record: Record, brand: Branding) -> None:
        super().__init__(orientation="portrait", unit="mm", format="A4")
        self.record, self.brand = record, brand
        fonts = shipped_assets() / "fonts"
        self.add_font(FONT, "", str(fonts / "Inter-SemiBold.otf"))
        self.add_font(FONT, "B", str(fonts / "Inter-Bold.otf"))
        self.set_auto_page_break(True, margin=16)
        self.set_title(f"{record.title}: the record for {record.period.words()}")
        self.set_author(brand.venue)
        self.set_creator("Showrunner audit report")

    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font(FONT, "", 8)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, f"{self.brand.venue} · {self.record.title} · {self.record.period.words()}",
                  new_x="LMARGIN", new_y="NEXT")
        self.set_draw_color(*self.brand.accent)
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.ln(3)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FONT, "", 8)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, f"Page {self.page_no()}/{{nb}} · generated {self.record.generated} "
                  f"({self.record.zone}) · log head event {self.record.chain.seq}", align="C")


def record_of(log: StoredLog, promotion: str, period: Period, now_ms: int,
              checkpoints: Path | None = None, public_key: Path | None = None) -> Record:
    """What the report of `promotion` for `period` says, from the log as it is now."""
    return build_record(log.read(), promotion, period, log.signature_image,
                        chain_of(log, checkpoints, public_key), now_ms)


def report_pdf(log: StoredLog, promotion: str, period: Period, now_ms: int,
               checkpoints: Path | None = None, public_key: Path | None = None) -> bytes:
    """The auditor's PDF of `promotion` for `period`, from the log as it is now."""
    return render(record_of(log, promotion, period, now_ms, checkpoints, public_key),
                  branding())


def render(record: Record, brand: Branding) -> bytes:
    pdf = _Pdf(record, brand)
    _cover(pdf, record, brand)
    for section in record.sections[1:]:  # the first, the rules in force, is on the cover
        if section.title == "Who conducted it":
            pdf.add_page()
        _heading(pdf, brand, section.title)
        for block in section.blocks:
            if isinstance(block, Table):
                _table(pdf, brand, block)
            elif isinstance(block, Para):
                _para(pdf, block.text)
            elif isinstance(block, Signature):
                _signature(pdf, block)
            elif isinstance(block, SignatureSheet):
                _sheet(pdf, block)
    _chain(pdf, brand, record)
    return bytes(pdf.output())


def _cover(pdf: _Pdf, record: Record, brand: Branding) -> None:
    pdf.add_page()
    pdf.set_fill_color(*brand.band)
    pdf.rect(0, 0, pdf.w, 70, style="F")
    if brand.logo is not None:
        pdf.image(str(brand.logo), x=pdf.l_margin, y=12, h=16)
    pdf.set_xy(pdf.l_margin, 34)
    pdf.set_text_color(*brand.accent)
    pdf.set_font(FONT, "B", 24)
    pdf.cell(0, 12, record.title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*brand.text_on_band)
    pdf.set_font(FONT, "", 12)
    pdf.cell(0, 7, f"The record for the auditor · {record.period.words()}",
              new_x="LMARGIN", new_y="NEXT")
    pdf.set_xy(pdf.l_margin, 80)
    pdf.set_text_color(20, 20, 20)
    facts = [("Venue", brand.venue), ("Promotion", f"{record.title} ({record.promotion})"),
             ("Period", record.period.words()), ("Times", f"the venue's clock, {record.zone}"),
             ("Generated", record.generated),
             ("Log head", f"event {record.chain.seq}, hash {record.chain.hash}")]
    for label, value in facts:
        pdf.set_font(FONT, "B", 10)
        pdf.cell(32, 6, label)
        pdf.set_font(FONT, "", 10)
        pdf.multi_cell(0, 6, value, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    rules = record.sections[0]
    _heading(pdf, brand, rules.title)
    for block in rules.blocks:
        if isinstance(block, Table):
            _table(pdf, brand, block)
        elif isinstance(block, Para):
            _para(pdf, block.text)


def _heading(pdf: _Pdf, brand: Branding, title: str) -> None:
    if pdf.get_y() > pdf.h - 50:
        pdf.add_page()
    pdf.ln(2)
    pdf.set_fill_color(*brand.band)
    pdf.set_text_color(*brand.accent)
    pdf.set_font(FONT, "B", 12)
    pdf.cell(0, 8, f"  {title}", fill=True, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_text_color(20, 20, 20)


def _para(pdf: _Pdf, text: str) -> None:
    pdf.set_font(FONT, "", 9)
    pdf.multi_cell(0, 5, text, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)


def _table(pdf: _Pdf, brand: Branding, table: Table) -> None:
    pdf.set_font(FONT, "", 8)
    pdf.set_draw_color(200, 200, 200)
    heading = FontFace(family=FONT, emphasis="BOLD", color=brand.text_on_band,
                       fill_color=brand.band)
    pdf.set_fill_color(255, 255, 255)
    pdf.set_text_color(20, 20, 20)
    with pdf.table(col_widths=tuple(table.widths), headings_style=heading, line_height=4.6,
                   text_align="LEFT", padding=1, width=pdf.epw, cell_fill_mode="ROWS",
                   cell_fill_color=(244, 244, 246)) as grid:
        for cells in [table.headers, *table.rows]:
            row = grid.row()
            for cell in cells:
                row.cell(cell)
    pdf.ln(3)


def _signature(pdf: _Pdf, block: Signature) -> None:
    pdf.set_font(FONT, "", 9)
    if pdf.get_y() > pdf.h - 52:
        pdf.add_page()
    pdf.multi_cell(0, 5, block.caption, align="L", new_x="LMARGIN", new_y="NEXT")
    if block.png is None:
        _para(pdf, f"The signature image {block.sha256[:12]}… is not in the log's store.")
        return
    top = pdf.get_y()
    pdf.set_draw_color(180, 180, 180)
    pdf.rect(pdf.l_margin, top, 80, 30)
    pdf.image(io.BytesIO(block.png), x=pdf.l_margin + 1, y=top + 1, w=78, h=28,
              keep_aspect_ratio=True)
    pdf.set_xy(pdf.l_margin + 84, top + 22)
    pdf.set_font(FONT, "", 7)
    pdf.multi_cell(0, 3.5, f"SHA-256 {block.sha256}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(top + 33)


SHEET_COLUMNS, SHEET_W, SHEET_H = 3, 58, 22  # a score sheet's signatures, in mm


def _sheet(pdf: _Pdf, block: SignatureSheet) -> None:
    """A score sheet: each signature small, under its signer's name and score, three a row."""
    pdf.set_font(FONT, "", 8)
    for row in range(0, len(block.signatures), SHEET_COLUMNS):
        if pdf.get_y() > pdf.h - 45:
            pdf.add_page()
        top = pdf.get_y() + 2
        for column, signature in enumerate(block.signatures[row:row + SHEET_COLUMNS]):
            x = pdf.l_margin + column * (SHEET_W + 4)
            pdf.set_xy(x, top)
            pdf.cell(SHEET_W, 4, signature.caption)
            pdf.set_draw_color(180, 180, 180)
            pdf.rect(x, top + 5, SHEET_W, SHEET_H)
            if signature.png is not None:
                pdf.image(io.BytesIO(signature.png), x=x + 1, y=top + 6, w=SHEET_W - 2,
                          h=SHEET_H - 2, keep_aspect_ratio=True)
            else:
                pdf.set_xy(x + 2, top + 12)
                pdf.cell(SHEET_W - 4, 4, "image not in the store")
        pdf.set_y(top + 5 + SHEET_H + 3)


def _chain(pdf: _Pdf, brand: Branding, record: Record) -> None:
    _heading(pdf, brand, "The chain head and the last signed checkpoint")
    _para(pdf, f"The log ends at event {record.chain.seq}; its hash is {record.chain.hash}.")
    signed = record.chain.signed_ms
    _para(pdf, record.chain.checkpoint + (f" It was signed {record.clock(signed)}."
                                          if signed is not None else ""))
    _para(pdf, CHECK_LINE)

