! Fragments B and E of MacDonald's chapter 2 beside the same operations without the
! loop-carried dependence (B*: W(I) = Q + Z(I)*X(I); E*: W(I) = X(I-1) + Y(I)): same
! counts under Table 2-4, so the micro-analysis predicts each pair alike. See
! bench/RESULTS.md, "MacDonald micro-analysis".
subroutine kb(n, z, x, q)
  integer :: n, i
  real :: z(*), x(*), q
  do i = 1, n
    q = q + (z(i)*x(i))
  end do
end subroutine
subroutine kw(n, z, x, w, q)
  integer :: n, i
  real :: z(*), x(*), w(*), q
  do i = 1, n
    w(i) = q + (z(i)*x(i))
  end do
end subroutine
subroutine ke(n, x, y)
  integer :: n, i
  real :: x(*), y(*)
  do i = 2, n
    x(i) = x(i-1) + y(i)
  end do
end subroutine
subroutine ke2(n, x, y, w)
  integer :: n, i
  real :: x(*), y(*), w(*)
  do i = 2, n
    w(i) = x(i-1) + y(i)
  end do
end subroutine
