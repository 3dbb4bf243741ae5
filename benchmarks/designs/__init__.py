"""Marvel United card designs that cardkit's proof renderer did not paint (issue 19).

Ten designs (design-b, design-c, design-d, design-e, design-f, design-g, design-h,
design-i, design-j, and design-k held out), each drawn with Pillow from the card data in
cards/marvel-united/ by code of its own: other fonts, palettes, token shapes, positions of
the Move value and the placement diagram, light-on-dark boxes. Nothing here imports
cardkit/render/ or reads cardkit's templates. benchmarks/paint_designs.py writes the
samples; data.py says which cards and what their truth is."""
