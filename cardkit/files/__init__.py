"""Files and durability: reading card files safely, atomic writes that keep comments,
locked read-edit-write transactions, output folders swapped in whole, and spools that
keep memory flat."""
