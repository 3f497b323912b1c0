// expect: 5:1: '.param' outside .kernel
.kernel k
    EXIT ;
.end
.param u32 n
