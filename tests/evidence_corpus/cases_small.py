"""Claims made only of small whole numbers, years, list numbering, bounds and bare words: they rest on nothing,
even where the code did compute the figures they gloss over."""

from __future__ import annotations

from .case import Case
from .common import crit, make, part
from .scen_big import sensors
from .scen_more import forecast, salaries, traffic
from .scen_sales import drivers, growth, regions
from .scen_tests import ab, churn, houses, trial

NOTE_BARE = "States no figure at all, only {what}; the README counts none of that as evidence."


def cases() -> list[Case]:
    r, d, a, g, s, f, c, v, t, h, se = (regions(), drivers(), ab(), growth(), salaries(), forecast(), churn(),
                                        traffic(), trial(), houses(), sensors())
    tab = g["growth"]
    return [
        make("small-01-three-times", "small_integers", r, ["how East's revenue compares with West's"],
             [part("a1", "East earns 3 times what West earns, and 2 regions account for most of the revenue.",
                   "outputs/revenue_by_region.csv")],
             answered="F", status="incomplete", task="How does East's revenue compare with West's?",
             note="'3 times' and '2 regions' are small integers (and 3 times happens to be about right): "
                  "no figure code produced is stated."),
        make("small-02-significant-no-test", "small_integers", d, ["whether discount has a significant effect"],
             [part("a1", "Yes, the effect of discount is significant (p < 0.05).")],
             answered="F", status="incomplete", cells=d.fresh_cells()[:3],
             task="Does discount have a significant effect on revenue?",
             note="Only describe() and correlations ran; no test produced a p-value, and 'p < 0.05' is a bound."),
        make("small-03-yes", "small_integers", a, ["whether page B raised conversion"],
             [part("a1", "Yes.")],
             answered="F", status="incomplete", task="Did the new checkout page (B) raise conversion?",
             note=NOTE_BARE.format(what="'yes'") + " The code did compute the rates; the answer gives none."),
        make("small-04-years", "small_integers", g, ["whether revenue has grown over the period"],
             [part("a1", "Yes, revenue grew in every region from 2023 to 2024.")],
             answered="F", status="incomplete", task="Has revenue grown over the period?",
             note=NOTE_BARE.format(what="years")),
        make("small-05-top-two", "small_integers", s, ["which departments pay the most"],
             [part("a1", "The top 2 departments, Engineering and Finance, pay the most.",
                   "outputs/salary_by_department.csv")],
             answered="F", status="incomplete", task="Which departments pay the most?",
             note=NOTE_BARE.format(what="a small integer and two names")),
        make("small-06-bare-name", "small_integers", r, ["which region has the highest revenue"],
             [part("a1", "East.", "outputs/revenue_by_region.csv")],
             answered="F", status="incomplete", task="Which region has the highest revenue?",
             note=NOTE_BARE.format(what="a region's name") + " The name is right, but a name proves nothing."),
        make("small-07-under-five", "small_integers", f, ["how accurate the forecast is"],
             [part("a1", "Very accurate: its error is under 5%.")],
             answered="F", status="incomplete", task="How accurate is the revenue forecast?",
             note="'Under 5%' is a bound made of a small integer; the printed MAPE 0.0343 is never stated."),
        make("small-08-seven-times", "small_integers", c, ["how much more month-to-month customers churn than "
                                                           "two-year customers"],
             [part("a1", "About 7 times as often.", "outputs/churn_by_contract.csv")],
             answered="F", status="incomplete",
             task="How much more often do month-to-month customers churn than two-year customers?",
             note="'7 times' is a small integer the model worked out itself (the file holds 0.3368 and 0.0507)."),
        make("small-09-ranking", "small_integers", v, ["the days of the week ranked by visits"],
             [part("a1", "1. Saturday 2. Sunday 3. Wednesday 4. Thursday 5. Tuesday 6. Monday 7. Friday",
                   "outputs/visits_by_weekday.csv")],
             answered="F", status="incomplete", task="Rank the days of the week by average visits.",
             note="List numbering and day names only; the ranking is right, but no figure supports it."),
        make("small-10-p-bound", "small_integers", t, ["whether the drug's effect is significant"],
             [part("a1", "Yes, p < 0.001.", "outputs/trial_result.json")],
             answered="F", status="incomplete", task="Is the drug's effect on blood pressure significant?",
             note="The code computed p = 1.72e-10, but the answer states only the bound 'p < 0.001'."),
        make("small-11-two-of-four", "small_integers", h, ["how many neighbourhoods have a median price above the "
                                                           "overall median"],
             [part("a1", "2 of the 4 neighbourhoods, Lakeside and Hillcrest.")],
             answered="F", status="incomplete",
             task="How many neighbourhoods have a median price above the overall median?",
             note=NOTE_BARE.format(what="small integers and names")),
        make("small-12-sensor-seven", "small_integers", se, ["which sensor runs abnormally hot"],
             [part("a1", "Sensor 7 (S07): it is the only one of the 12 sensors that stands out.",
                   "outputs/sensor_summary.csv")],
             answered="F", status="incomplete", task="Which sensor runs abnormally hot?",
             note="A sensor's name and two small integers; neither its mean 81.22 nor its z-score is stated, and "
                  "the 1.4 MB dump does not change that."),
        make("small-13-orchestrated-twice", "small_integers", g, ["which region's sales grow fastest", "why"],
             [part("a1", "East grows fastest, roughly 3 times as fast as Central.", "outputs/growth_by_region.csv"),
              part("a2", "Because East's ad spend rose through 2023 and 2024.")],
             answered="FF", status="incomplete",
             criteria=[crit("c1", "Monthly growth is estimated for every region",
                            f"outputs/growth_by_region.csv has `revenue_growth` for all five regions, East highest "
                            f"at {tab.loc['East', 'revenue_growth']:.4f}.")],
             note="The criterion holds, but the answer gives only '3 times' and years: nothing traced."),
    ]
