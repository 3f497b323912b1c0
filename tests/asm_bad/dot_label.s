// expect: 2:1: '.' cannot be a label
.: EXIT ;
