"""Figures the model worked out itself from the outputs (ratios, differences, shares, sums, rescalings): not
evidence unless executed code computed them too, which the last cases here show."""

from __future__ import annotations

from functools import cache

from . import data
from .case import Case
from .common import Scenario, cell, make, num, part, pct
from .data import csv, shown
from .scen_big import channels
from .scen_more import forecast, salaries
from .scen_sales import drivers, growth, regions
from .scen_tests import ab, churn, houses

REV = "outputs/revenue_by_region.csv"


@cache
def yoy() -> Scenario:
    """Revenue by region and year, with the change computed by code."""
    df = data.sales()
    y = df.assign(year=df["month"].str[:4]).groupby(["region", "year"])["revenue"].sum().unstack()
    y["change_pct"] = (y["2024"] / y["2023"] - 1) * 100
    r = regions()
    extra = cell("yearly = df.assign(year=df['month'].str[:4]).groupby(['region', 'year'])['revenue'].sum()"
                 ".unstack()\nyearly['change_pct'] = (yearly['2024'] / yearly['2023'] - 1) * 100\n"
                 "print(yearly.round(2))\nyearly.to_csv('outputs/yoy_by_region.csv')",
                 shown(y.round(2)), {"outputs/yoy_by_region.csv": csv(y)}, stage=2)
    return Scenario(task="How did each region's revenue change from 2023 to 2024?", cells=(*r.cells, extra),
                    inputs=r.inputs, facts={"yoy": y})


def cases() -> list[Case]:
    r, a, g, s, h, c, f, d, ch = (regions(), ab(), growth(), salaries(), houses(), churn(), forecast(), drivers(),
                                  channels())
    rev, y = r["rev"], yoy()["yoy"]
    east_yoy, med = y.loc["East", "change_pct"], h["by"]["median"]
    return [
        make("derived-01-ratio", "derived", r, ["how East's revenue compares with West's"],
             [part("a1", f"East earns {rev['East'] / rev['West']:.2f} times what West earns.", REV)],
             answered="F", status="incomplete", task="How does East's revenue compare with West's?",
             note="The file holds the two totals; their ratio 3.01 was computed by the model, not by code."),
        make("derived-02-difference", "derived", a, ["by how much B's conversion beats A's"],
             [part("a1", f"B converts {(a['rate_b'] - a['rate_a']) * 100:.2f} percentage points better than A "
                         f"({pct(a['rate_b'], 2)} vs {pct(a['rate_a'], 2)}).")],
             answered="F", status="incomplete", cells=a.fresh_cells()[:2],
             task="By how much does B's conversion beat A's?",
             note="Only the rates were printed; the 2.38-point difference is the model's own subtraction."),
        make("derived-03-yoy-by-hand", "derived", g, ["how East's revenue changed from 2023 to 2024"],
             [part("a1", f"East's revenue grew {east_yoy:.1f}% from 2023 to 2024.")],
             answered="F", status="incomplete", task="How did East's revenue change from 2023 to 2024?",
             note="The monthly table was printed; summing each year and taking the change is the model's own "
                  "arithmetic (derived-13 is the same figure computed by code)."),
        make("derived-04-sum", "derived", r, ["how much revenue East and North bring in together"],
             [part("a1", f"Together East and North bring in {num(rev['East'] + rev['North'], 2)}.", REV)],
             answered="F", status="incomplete", task="How much revenue do East and North bring in together?",
             note="A sum of two figures in the file that no code computed."),
        make("derived-05-share-uncomputed", "derived", r, ["East's share of total revenue"],
             [part("a1", f"East accounts for {pct(r['share']['East'])} of total revenue.")],
             answered="F", status="incomplete", cells=r.fresh_cells()[:2],
             task="What share of total revenue does East account for?",
             note="Only the totals cell ran; the share is the model's own division (the cell that computes it "
                  "is absent from this run)."),
        make("derived-06-mean-of-means", "derived", s, ["what the average department pays"],
             [part("a1", f"The average department pays {num(s['by_dept']['mean'].mean())}.",
                   "outputs/salary_by_department.csv")],
             answered="F", status="incomplete", task="What does the average department pay?",
             note="A mean of the five department means, worked out by the model; the file has only the five."),
        make("derived-07-median-gap", "derived", h, ["how much dearer Lakeside is than Old Town"],
             [part("a1", f"Lakeside's median price is {num(med['Lakeside'] - med['Old Town'])} above Old Town's.",
                   "outputs/price_by_neighbourhood.csv")],
             answered="F", status="incomplete", task="How much dearer is Lakeside than Old Town?",
             note="The difference of two medians in the file; no code subtracted them."),
        make("derived-08-churn-ratio", "derived", c, ["how much more month-to-month customers churn than two-year "
                                                      "customers"],
             [part("a1", f"Month-to-month customers churn {c['by']['Month-to-month'] / c['by']['Two year']:.2f} "
                         "times as often as two-year customers.", "outputs/churn_by_contract.csv")],
             answered="F", status="incomplete",
             task="How much more often do month-to-month customers churn than two-year customers?",
             note="6.64 is the model's ratio of two rates in the file."),
        make("derived-09-annualised", "derived", f, ["the annual growth rate of revenue"],
             [part("a1", f"Revenue grows about {pct((1 + f['monthly_trend']) ** 12 - 1)} a year.",
                   "outputs/forecast.json")],
             answered="F", status="incomplete", task="What is the annual growth rate of revenue?",
             note="The file holds a monthly trend of 0.0103; compounding it to 13.1% a year is the model's own "
                  "calculation."),
        make("derived-10-rescaled", "derived", d, ["how much revenue 10 points of discount cost"],
             [part("a1", f"Every 10 points of discount cost {abs(d['coef']['discount_pct']) * 10:.1f} in revenue "
                         "per order.", "outputs/revenue_drivers.csv")],
             answered="F", status="incomplete", task="How much revenue do 10 points of discount cost?",
             note="The coefficient per point is -6.02; scaling it to 60.2 per 10 points is the model's arithmetic."),
        make("derived-11-ratio-by-code", "derived", ch, ["how revenue per order compares between online and "
                                                         "retail"],
             [part("a1", f"An online order brings {ch['ratio']:.3f} times the revenue of a retail order, "
                         f"{ch['diff']:.2f} more.")],
             answered="T", status="completed",
             task="How does revenue per order compare between online and retail orders?",
             note="The ratio and difference look derived, but the cell computed and printed both (ratio 1.081, "
                  "223.20)."),
        make("derived-12-difference-by-code", "derived", a, ["by how much B's conversion beats A's"],
             [part("a1", f"B converts {a['diff'] * 100:.2f} percentage points better than A.",
                   "outputs/ab_result.json")],
             answered="T", status="completed", task="By how much does B's conversion beat A's?",
             note="Here the test cell saved diff = 0.02385 to ab_result.json, so 2.38 points is traced."),
        make("derived-13-yoy-by-code", "derived", yoy(), ["how East's revenue changed from 2023 to 2024"],
             [part("a1", f"East's revenue grew {east_yoy:.1f}% from 2023 to 2024, from {num(y.loc['East', '2023'])} "
                         f"to {num(y.loc['East', '2024'])}.", "outputs/yoy_by_region.csv")],
             answered="T", status="completed", task="How did East's revenue change from 2023 to 2024?",
             note="A cell computed change_pct = 67.80 and saved it with both years' totals."),
    ]
