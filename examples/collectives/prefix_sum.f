      X(1) = Y(1)
      DO I = 2, N
        X(I) = X(I-1) + Y(I)
      END DO
