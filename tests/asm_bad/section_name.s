// expect: 2:9: expected a section name after '.section'
.section
