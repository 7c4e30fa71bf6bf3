"""``explorer audit``: attack your own synthetic data before you release it.

The command only parses options, shows progress and prints a summary; the
audit itself is :func:`compute.audit.run_audit`, the report
:mod:`privacy_explorer.audit_report` and the writing :mod:`privacy_explorer.audit_output`.
Exit status: 0 when the report is written, 1 when ``--fail-above`` is
exceeded or, with ``--fail-on-leak``, a leak is detected (after writing it), 2
on bad input (a file, an option or the output folder), 130/143 when stopped by
SIGINT/SIGTERM.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import click

from privacy_explorer.audit_output import AuditError, check_output_folder, write_outputs
from privacy_explorer.audit_report import (
    LOW_FPR,
    check_gate,
    course_address,
    fmt_p,
    next_steps,
    render_outputs,
    verdict_sentence,
)
from privacy_explorer.cluster import Cluster, TaskLost
from privacy_explorer.errors import ClusterError
from privacy_explorer.workers import retire_pool

ATTACK_HELP = "gen_lra, dcr, dcr_diff, domias, density, mc, dpi, classifier, logan"


def audit_library() -> ModuleType:
    """The audit library: ``compute/audit.py``, installed as ``privacy_explorer.compute.audit``."""
    return importlib.import_module("privacy_explorer.compute.audit")


def _numbers(value: str | None, option: str) -> tuple[int, ...]:
    """``"5,20"`` as ``(5, 20)``."""
    if value is None:
        return (5,)
    try:
        counts = tuple(int(part) for part in value.replace(" ", "").split(",") if part)
    except ValueError:
        raise click.BadParameter(
            f"give whole numbers separated by commas, e.g. 5,20; got {value!r}", param_hint=option
        ) from None
    if not counts or min(counts) < 1:
        raise click.BadParameter(
            f"give positive whole numbers, e.g. 5,20; got {value!r}", param_hint=option
        )
    return counts


def _attacks(value: str | None, known: tuple[str, ...]) -> tuple[str, ...]:
    if value is None:
        return known
    chosen = tuple(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
    unknown = [name for name in chosen if name not in known]
    if unknown or not chosen:
        raise click.BadParameter(
            f"unknown attack {', '.join(repr(name) for name in unknown) or repr(value)}; choose "
            f"from {', '.join(known)}",
            param_hint="--attacks",
        )
    return chosen


@contextmanager
def _progress_bar(total_hint: int) -> Iterator[Callable[[str, int, int], None]]:
    """A progress bar on standard error, moved by ``run_audit``'s progress callback."""
    with click.progressbar(
        length=total_hint,
        label="Auditing",
        file=sys.stderr,
        show_eta=False,
        item_show_func=lambda step: step,
    ) as bar:

        def report(step: str, done: int, total: int) -> None:
            bar.length = total
            bar.update(done - bar.pos, current_item="" if step in ("start", "done") else step)

        yield report


class _Stopped(BaseException):
    """Raised in the main thread by SIGINT or SIGTERM (not an Exception: nothing may catch it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _stoppable(received: list[int]) -> Iterator[None]:
    """Turn SIGINT and SIGTERM into :class:`_Stopped`, even where a shell ignores SIGINT.

    Each signal is also appended to ``received``: joblib, stopped while it
    starts its workers, may replace :class:`_Stopped` with an error of its own.
    """

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        raise _Stopped(signum)

    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _notes(result: object) -> list[str]:
    """What the preprocessing changed, and a warning about many dimensions."""
    preprocessing = result.preprocessing  # type: ignore[attr-defined]
    notes = [f"note: {note}" if not note.startswith("warning") else note for note in result.notes]  # type: ignore[attr-defined]
    notes += [
        f"note: column '{column.name}' dropped: it is always {column.value} in the "
        f"{' and '.join(column.constant_in)} data"
        if column.exact
        else f"note: column '{column.name}' dropped: it is nearly constant in the "
        f"{' and '.join(column.constant_in)} data (spread below {column.tolerance:g} of its "
        "spread over all four files); a leak that shows only in this column is not measured"
        for column in preprocessing.dropped
    ]
    notes += [
        f"note: {item.count} missing value(s) in column '{item.column}' of the {item.role} "
        f"file filled with {item.value}"
        for item in preprocessing.imputed
    ]
    attacks = result.attacks  # type: ignore[attr-defined]
    measured = [attack for attack in attacks if attack.nonmember_scores is not None]
    nonmembers = measured[0].nonmember_scores.size if measured else None
    if nonmembers is not None and nonmembers * LOW_FPR < 1:
        notes.append(
            f"note: with {nonmembers:,} non-members the TPR at FPR {LOW_FPR:g} cannot be "
            f"measured (that takes at least {round(1 / LOW_FPR):,}); the report says 'not "
            "measurable' there"
        )
    if result.high_dimension:  # type: ignore[attr-defined]
        notes.append(
            f"warning: the attacks see {preprocessing.dimension} dimensions, too many for a "
            "reliable kernel density estimate; consider --dims"
        )
    return notes


def _summary_lines(result: object, out: Path) -> list[str]:
    lines = []
    verdict = verdict_sentence(result, "en")  # type: ignore[arg-type]
    if verdict is not None:
        bound = result.leak_test.epsilon_bound  # type: ignore[attr-defined]
        lines.append(verdict)
        lines.append(
            f"Empirical epsilon lower bound: {bound.value:.2f} ({100 * bound.confidence:g} % "
            f"confidence, {bound.attack}; valid only if membership was assigned at random)"
        )
        lines.append(f"{'attack':<14} {'AUC':>6}  {'95% interval':<15} {'p (corr.)':>9}")
        for attack in result.attacks:  # type: ignore[attr-defined]
            metrics = attack.metrics
            interval = f"[{metrics.auc_ci[0]:.3f}, {metrics.auc_ci[1]:.3f}]"
            lines.append(
                f"{attack.key:<14} {metrics.auc:>6.3f}  {interval:<15} "
                f"{fmt_p(metrics.p_value_adjusted):>9}"
            )
    else:
        lines.append(
            "No --nonmembers: the report has per-record scores and the most exposed members, no "
            "AUC."
        )
    lines.append(f"Report: {out / 'report.html'}")
    return lines


@click.command("audit")
@click.option(
    "--members",
    required=True,
    type=click.Path(path_type=Path),
    help="Records the generator was trained on (CSV).",
)
@click.option(
    "--nonmembers",
    type=click.Path(path_type=Path),
    default=None,
    help="Records of the same population it never saw (CSV). Without them: scores only, no AUC.",
)
@click.option(
    "--reference",
    required=True,
    type=click.Path(path_type=Path),
    help="Another sample of the population (CSV).",
)
@click.option(
    "--synthetic",
    required=True,
    type=click.Path(path_type=Path),
    help="The synthetic release (CSV).",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=Path),
    help="Folder for report.html, results.json and scores.csv.",
)
@click.option(
    "--k",
    "k_values",
    metavar="K[,K…]",
    default=None,
    help="Gen-LRA's numbers of nearest synthetic records.  [default: 5]",
)
@click.option(
    "--attacks",
    "attack_names",
    metavar="NAME[,NAME…]",
    default=None,
    help=f"Attacks to run.  [default: all: {ATTACK_HELP}]",
)
@click.option(
    "--lang",
    type=click.Choice(["ko", "en"]),
    default="ko",
    show_default=True,
    help="Language of the report.",
)
@click.option(
    "--fail-above",
    type=click.FloatRange(0, 1),
    default=None,
    metavar="AUC",
    help="Exit with status 1 (after writing the report) when any attack's AUC is above this.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="False-alarm rate of the verdict, over all attacks together.",
)
@click.option(
    "--permutations",
    type=click.IntRange(min=100),
    default=1000,
    show_default=True,
    help="Label permutations behind the verdict.",
)
@click.option(
    "--fail-on-leak",
    is_flag=True,
    help="Exit with status 1 (after writing the report) when the verdict is 'leak detected'.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the bootstrap, the verdict's permutations, the ε split and the classifier and "
    "LOGAN attacks.",
)
@click.option(
    "--dims",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Keep the first N principal components of the reference data "
    "(for many or collinear columns).",
)
@click.option(
    "--impute",
    type=click.Choice(["median"]),
    default=None,
    help="Fill missing values with the synthetic data's median instead of stopping.",
)
@click.option(
    "--sep",
    type=click.Choice([",", ";", "tab", "|"]),
    default=None,
    help="Field separator of the CSV files.  [default: sniffed from each file]",
)
@click.option(
    "--decimal",
    type=click.Choice([".", ","]),
    default=None,
    help="Decimal mark of the CSV files.  [default: sniffed from each file]",
)
@click.option(
    "--na-values",
    metavar="TEXT[,TEXT…]",
    default=None,
    help="Field values that mean 'missing', besides the empty field (e.g. NA,n/a). "
    "[default: only the empty field, so 'NA' is a value]",
)
@click.option(
    "--allow-overlap",
    is_flag=True,
    help="Audit even when members appear among the non-members or in the reference.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Attacks computed in parallel.  [default: number of cores]",
)
@click.option(
    "--show-records",
    is_flag=True,
    help="Show the most exposed members' values and their nearest synthetic records' in the "
    "report (it then holds training data and says so in a warning box).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Compute the attacks and their metrics on the Dask cluster whose scheduler is at "
    "ADDRESS (tcp://HOST:8786), or on a local one with 'local' (--jobs workers); the same "
    "results byte for byte. Needs pip install .[cluster].",
)
@click.option(
    "--course-url",
    metavar="URL|FOLDER",
    envvar="EXPLORER_COURSE_URL",
    default=None,
    help="Where the course is published (https://OWNER.github.io/REPO/) or the folder of a "
    "built copy (build/site): the report's next steps then link to its lessons; without it "
    "they name the lessons only. Also read from EXPLORER_COURSE_URL.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Write into a folder that holds other files (they are kept; a file named like an "
    "output that an earlier audit did not write is never replaced).",
)
def audit_command(
    members: Path,
    nonmembers: Path | None,
    reference: Path,
    synthetic: Path,
    out: Path,
    k_values: str | None,
    attack_names: str | None,
    lang: str,
    fail_above: float | None,
    alpha: float,
    permutations: int,
    fail_on_leak: bool,
    seed: int,
    dims: int | None,
    impute: str | None,
    sep: str | None,
    decimal: str | None,
    na_values: str | None,
    allow_overlap: bool,
    jobs: int | None,
    show_records: bool,
    scheduler: str | None,
    course_url: str | None,
    force: bool,
) -> None:
    """Run membership-inference attacks on a synthetic release and write a report.

    Example: explorer audit --members mem.csv --nonmembers non_mem.csv
    --reference ref.csv --synthetic synth.csv --out audit-report
    """
    library = audit_library()
    k = _numbers(k_values, "--k")
    attacks = _attacks(attack_names, library.ATTACK_KEYS)
    if fail_above is not None and nonmembers is None:
        raise click.UsageError(
            "--fail-above needs --nonmembers: without them there is no AUC to compare"
        )
    if fail_on_leak and nonmembers is None:
        raise click.UsageError(
            "--fail-on-leak needs --nonmembers: without them there is no verdict"
        )
    if sep == "," and decimal == ",":
        raise click.UsageError("--sep , and --decimal , cannot both be ','; choose --sep ';'")
    course = course_address(course_url) if course_url else None
    check_output_folder(out, force)
    run = functools.partial(
        library.run_audit,
        members, nonmembers, reference, synthetic,
        k=k, attacks=attacks, seed=seed, dims=dims, impute=impute,
        jobs=jobs or os.cpu_count() or 1,
        alpha=alpha, permutations=permutations,
        read_options=library.ReadOptions(
            sep="\t" if sep == "tab" else sep,
            decimal=decimal,
            na_values=tuple(
                part.strip() for part in str(na_values or "").split(",") if part.strip()
            ),
        ),
        allow_overlap=allow_overlap,
    )  # fmt: skip
    received: list[int] = []
    try:
        # The cluster is reached before any file is read, so a wrong address costs nothing.
        computers = Cluster(scheduler, jobs or os.cpu_count() or 1) if scheduler else None
        with _stoppable(received), computers or contextlib.nullcontext():
            if computers is not None:
                run = functools.partial(run, run_tasks=_cluster_tasks(computers))
            _audit_and_write(
                library,
                run,
                len(attacks),
                out,
                lang,
                fail_above,
                fail_on_leak,
                show_records,
                course,
            )
    except ClusterError as error:  # exit 2 like any unusable option, never the gate's 1
        raise AuditError(str(error)) from None
    except BaseException as error:
        signum = error.signum if isinstance(error, _Stopped) else next(iter(received), None)
        if signum is None or isinstance(error, SystemExit | click.exceptions.Exit):
            raise
        retire_pool()  # returns once every worker is dead
        click.echo(
            f"\nstopped by {signal.Signals(signum).name}: {out} was left as it was", err=True
        )
        sys.exit(128 + signum)


def _next_step_lines(result: object, course_url: str | None) -> list[str]:
    """The report's next steps, one line each, with the lesson that explains it."""
    steps = next_steps(result, "en", course_url)  # type: ignore[arg-type]
    lines = ["What to do next:"] if steps else []
    for step in steps:
        where = step.title if step.href is None else f"{step.title}: {step.href}"
        lines.append(f"- {step.text} ({where})")
    return lines


def _cluster_tasks(computers: Cluster) -> Callable[..., Iterator[Any]]:
    """``computers.run``, connected now, with a lost task reported as a clear error."""
    computers.client()

    def run_tasks(function: Callable[..., Any], tasks: Sequence[Sequence[Any]]) -> Iterator[Any]:
        try:
            yield from computers.run(function, tasks)
        except TaskLost as lost:
            raise ClusterError(
                f"--scheduler {computers.address}: the Dask cluster could not finish an audit "
                f"task ({lost.how}); a worker may have run out of memory: give the workers "
                "more memory, or audit without --scheduler; nothing was written"
            ) from None

    return run_tasks


def _audit_and_write(
    library: ModuleType,
    run: Callable[..., Any],
    attack_count: int,
    out: Path,
    lang: str,
    fail_above: float | None,
    fail_on_leak: bool,
    show_records: bool = False,
    course_url: str | None = None,
) -> None:
    """Run the audit (``run``: :func:`run_audit` given every option but the progress bar),
    write the outputs and report the gate (the body of ``audit_command``)."""
    try:
        with _progress_bar(attack_count + 1) as progress:
            result = run(progress=progress)
    except library.AuditInputError as error:
        raise AuditError(str(error)) from error
    gate = check_gate(result, fail_above)
    files = render_outputs(
        result,
        library.results_json(result),
        library.scores_table(result),
        lang,
        gate=gate,
        show_records=show_records,
        course_url=course_url,
    )
    write_outputs(out, files)
    if show_records:
        click.echo(
            f"warning: --show-records: {out / 'report.html'} holds training records; keep it "
            "where the training data is kept, never with the public release",
            err=True,
        )
    for note in _notes(result):
        click.echo(note, err=True)
    for line in _summary_lines(result, out):
        click.echo(line)
    for line in _next_step_lines(result, course_url):
        click.echo(line)
    failed = False
    if gate is not None and gate.failed:
        click.echo(f"AUC above --fail-above {fail_above:g}: {', '.join(gate.failed)}", err=True)
        failed = True
    verdict = result.leak_test.verdict if result.leak_test is not None else None
    if fail_on_leak and verdict is not None and verdict.leak_detected:
        click.echo(
            f"leak detected (p = {fmt_p(verdict.p_value)} <= alpha = {verdict.alpha:g}) and "
            "--fail-on-leak is set",
            err=True,
        )
        failed = True
    if failed:
        click.get_current_context().exit(1)
