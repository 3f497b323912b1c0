// expect: 2:5: unknown modifier '.FOO': EXIT takes no modifiers
EXIT.FOO ;
