from cardkit.cli import main

main()
