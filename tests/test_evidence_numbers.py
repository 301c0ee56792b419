"""Numbers in answers and outputs: read as written, traced through rounding and formatting, never invented."""

from __future__ import annotations

import pytest

from agentic_ds.evidence import numbers
from agentic_ds.evidence.numbers import NumberIndex, extract, indexed, offset_of, written_at
from tests.evidence_support import assert_linear


def one(text: str):
    (number,) = extract(text)
    return number


def index_of(*texts: str) -> NumberIndex:
    index = NumberIndex()
    for text in texts:
        index.add_text(text)
    return index


@pytest.mark.parametrize(("text", "value", "decimals"), [
    ("0.4567", 0.4567, 4), ("71,374.39", 71374.39, 2), ("45.7%", 45.7, 1), ("1.2e-05", 1.2e-05, 1),
    ("-0.12", -0.12, 2), ("71.4 thousand", 71400.0, 1), ("3.2 million", 3.2e6, 1), (".5", 0.5, 1), ("12k", 12000, 0),
])
def test_a_number_is_read_as_written(text, value, decimals):
    number = one(f"the value is {text} here")
    assert number.value == pytest.approx(value) and number.decimals == decimals


def test_bounds_approximations_and_ranges():
    assert one("p < 0.001").bound == "<" and one("p ≤ 0.05").bound == "<="
    assert one("about 12.5 units").approx and one("~12.5").approx
    assert [n.value for n in extract("over 1959-2009")] == [1959, 2009]   # a range, not a negative number


@pytest.mark.parametrize("text", ["outputs/01-answer.json", "figures/02-trend.png", "means.csv", "on 2009-01-01",
                                  "stage 2", "criterion 3", "COVID-19", "c1 and s2", "1. First point", "the 3rd row"])
def test_paths_dates_labels_and_names_are_not_claims(text):
    assert extract(text) == []


@pytest.mark.parametrize("claim", ["0.457", "0.46", "0.5", "45.7%", "45.67%", "+0.4567", "about 0.45", "0.456"])
def test_a_rounded_truncated_or_reformatted_claim_is_traced(claim):
    assert index_of("r = 0.45671").traces(one(claim))


@pytest.mark.parametrize("claim", ["0.47", "0.4568", "0.4566", "46.7%", "4.57", "0.0457", "-0.4567"])
def test_a_different_number_is_not_traced(claim):
    assert not index_of("r = 0.45671").traces(one(claim))


def test_a_sign_written_must_match_one_said_in_words_need_not():
    index = index_of("coef -6.0189 and 2024-06-01")
    assert index.traces(one("fell by 6.02")) and index.traces(one("−6.02")) and not index.traces(one("+6.02"))
    assert not index.traces(one("-1")) and index.traces(one("1"))      # the date's -01 is no negative number


@pytest.mark.parametrize(("claim", "value"), [("1.7 × 10^-10", 1.7e-10), ("1.1 × 10⁻⁷", 1.1e-7), ("2.4 pp", 2.4),
                                              ("2.4 percentage points", 2.4), ("3.3x", 3.3)])
def test_scientific_notation_points_and_multiples_are_read(claim, value):
    assert one(claim).value == pytest.approx(value)
    assert one("under 5%").bound == "<" and one("at least 12.5").bound == ">"


def test_a_figure_a_big_output_holds_by_chance_proves_nothing_a_small_file_proves_it():
    import random
    rng = random.Random(3)
    big = index_of(" ".join(f"{rng.random():.4f}" for _ in range(100_000)))
    small = index_of("category,0.2421,0.2915\ndiscount,0.031,0.2915\nn,10215")
    for claim in ("0.81", "0.29", "37.5%"):
        assert big.traces(one(claim)) and not big.proves(one(claim))
    for claim in ("0.2915", "0.242", "10,215", "0.29"):
        assert small.proves(one(claim))
    text = "a\nb row 2 value 10215 here"
    value = index_of(text).observed(one("10,215"))
    assert value == 10215 and text[offset_of(text, value, signed=False):].startswith("10215")


def test_thousands_scales_and_percent_outputs():
    index = index_of('{"mean_salary": 71374.39}', "share: 12.5%")
    for claim in ("71,374", "71,374.4", "71.4 thousand", "71,000", "0.125", "12.5 percent"):
        assert index.traces(one(claim)), claim
    assert not index.traces(one("72,000")) and not index.traces(one("71,380"))


def test_bounds_are_traced_by_a_number_on_their_side():
    assert index_of("p = 1.2e-10").traces(one("p < 0.001"))
    assert not index_of("p = 0.2").traces(one("p < 0.001"))
    assert index_of("t = 12.4").traces(one("t > 10"))


def test_an_empty_index_traces_nothing():
    assert not NumberIndex().traces(one("0.5")) and not NumberIndex().traces(one("p < 0.05"))


def test_a_text_read_again_is_indexed_once_and_the_shared_index_is_never_changed(monkeypatch):
    monkeypatch.setattr(numbers, "_indexed", numbers.OrderedDict())
    monkeypatch.setattr(numbers, "_indexed_bytes", 0)
    rows = "".join(f"{i},{i * 1.25:.2f},{i % 7}%\n" for i in range(2000))
    first = indexed("id,amount,share\n" + rows)
    again = indexed("".join(["id,amount,share\n", rows]))     # the same text, read again (another string)
    assert again is first
    fresh = index_of("id,amount,share\n" + rows)
    for claim in ("1,248.75", "0.06", "6%", "2,499", "-3.5", "p < 0.001"):
        assert first.traces(one(claim)) == fresh.traces(one(claim)), claim
        assert first.proves(one(claim)) == fresh.proves(one(claim)), claim
    before = len(first)
    union = NumberIndex()
    union.merge(first)
    union.add_text("987654.321")
    assert len(first) == before and not first.traces(one("987,654.32")) and union.traces(one("987,654.32"))


def test_the_texts_kept_for_their_indexes_are_bounded(monkeypatch):
    a, b, c = "a 1.5 " * 2, "b 2.5 " * 2, "c 3.5 " * 2     # of one weight each: 12 characters and one number
    weight = numbers.index_weight(a, index_of(a))
    assert weight == numbers.index_weight(b, index_of(b)) > len(a)
    monkeypatch.setattr(numbers, "_indexed", numbers.OrderedDict())
    monkeypatch.setattr(numbers, "_indexed_bytes", 0)
    monkeypatch.setattr(numbers, "INDEXED_BYTES", 2 * weight + 1)
    kept_a = indexed(a)
    indexed(b)
    assert indexed(a) is kept_a                            # a used again: b is now the least recently used
    indexed(c)
    assert list(numbers._indexed) == [a, c] and numbers._indexed_bytes == 2 * weight
    assert indexed(b) is not None and b in numbers._indexed and a not in numbers._indexed
    assert indexed("x 9.5 " * 100).traces(one("9.5"))      # one text over the bound is still indexed
    assert list(numbers._indexed) == ["x 9.5 " * 100]


def test_an_index_is_weighed_by_the_numbers_it_keeps():
    import random
    rng = random.Random(3)
    dense = "\n".join(",".join(f"{rng.gauss(0, 1):.6f}" for _ in range(10)) for _ in range(2000))
    words = "no numbers here at all " * (len(dense) // 23)
    assert numbers.index_weight(dense, index_of(dense)) > 10 * len(dense)
    assert numbers.index_weight(words, index_of(words)) == len(words)


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["1,234,567.89e-3 -0.5% ", "9" * 5000 + " ", "1,2,3,4,5,", "e1e1-1-1.1.1.",
                                   "outputs/a-1.json 2009-01-01 stage 3 ", "x" * 3000 + "1 "])
def test_reading_numbers_is_linear(shape):
    assert_linear(lambda text: index_of(text).traces(one("0.5")) or extract(text) or written_at(text, "0.5"), shape)


def test_a_figure_written_as_a_dense_table_writes_it_is_proven_an_invented_one_is_not():
    # An effect-size table at 3 decimals, with model output at full precision around it: every value near 0.4
    # rounds to "0.4", so rounding alone would call a quoted 0.4 chance; written exactly as the table writes it,
    # it competes only with the table's other one-decimal figures.
    import random
    rng = random.Random(5)
    noise = " ".join(f"{rng.uniform(-1.6, 2.4):.6f}" for _ in range(400))
    table = index_of(f"driver,effect,share\ncategory,0.4,2.7%\ndiscount,0.033,-2.0\nchannel,1.0,0.166\n{noise}")
    for quoted in ("0.4", "0.033", "-2.0", "2.7%", "1.0"):
        assert table.proves(one(quoted)), quoted
    for invented in ("0.7", "1.3"):   # not written in the table: traced by rounding only, which is chance
        assert table.traces(one(invented)) and not table.proves(one(invented)), invented
    crowded = index_of(" ".join(f"{v / 10:.1f}" for v in range(0, 61)))   # every one-decimal figure is written
    assert crowded.traces(one("3.4")) and not crowded.proves(one("3.4"))
