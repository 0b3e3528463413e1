"""The platform's composed-move controls: the any-amount form and the multi-card select."""

from __future__ import annotations

from bot.discord_front import views
from bot.rules.engine import Action, Control


def test_hand_items_place_a_multi_select_then_buttons_and_the_amount_form():
    controls = [
        Control(Action("discard"), label="Discard 1 to 4 cards…", place="multi",
                choices=(("2c", "2♣"), ("3d", "3♦"), ("4h", "4♥")), max_values=4),
        Control(Action("fold"), label="Fold", style="danger"),
        Control(Action("bet"), label="Bet another amount (0–10)…", place="amount"),
    ]
    items = views.hand_items(1, 2, 7, controls)
    by_id = {item.custom_id: item.item for item in items}  # the DynamicItems' components
    multi = by_id["dh:multi:1:2:7:discard"]
    assert multi.row == 0 and multi.min_values == 1 and multi.max_values == 3  # no more than the options
    assert [o.value for o in multi.options] == ["2c", "3d", "4h"]
    assert by_id["dh:act:1:2:7:fold"].row == 1
    form = by_id["dh:amt:1:2:7:bet"]
    assert form.row == 1 and form.label == "Bet another amount (0–10)…"
    assert all(len(cid) <= 100 for cid in by_id)
    assert views.AmountButton in views.DYNAMIC_ITEMS and views.MultiSelect in views.DYNAMIC_ITEMS


def test_amount_form_custom_id_and_its_field_are_read_back():
    modal = views.AmountModal(1, 2, 7, "raise", "Match and raise another amount (1–10)…")
    assert modal.custom_id == "dh:amtm:1:2:7:raise" and len(modal.title) <= 45
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": " 12 "}]}]
    labels = [{"type": 18, "component": {"type": 4, "custom_id": "amount", "value": "3"}}]
    assert views._field_value(rows, "amount") == " 12 " and views._field_value(labels, "amount") == "3"
    assert views._field_value([], "amount") is None


def test_amount_refusals_are_sentences():
    assert views.amount_refusal(" 12 ") is None
    for bad in ("", "three", "-2", "1.5", "٣"):
        refusal = views.amount_refusal(bad)
        assert refusal and refusal.endswith("e.g. 3."), bad
