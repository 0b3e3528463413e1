"""Pictures: card art (cardart.py, cardart_pips.py), drawn in a worker (picture_pool.py),
PNG output (png_writer.py) and /profile's rating chart (rating_chart.py). No Discord here."""
