// expect: 2:10: unterminated comment
    EXIT /* no end
    EXIT ;
